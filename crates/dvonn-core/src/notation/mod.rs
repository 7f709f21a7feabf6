//! The text formats of `NOTATION.md`: moves, position strings, game records,
//! and the records of other programs (Little Golem, BoardSpace).

pub mod move_text;
pub mod position_string;
