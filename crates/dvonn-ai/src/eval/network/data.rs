//! Training data for the network: the positions of self-play games, each
//! with the score of the search that chose its move and the final margin
//! of its game.
//!
//! [`DataPlan::play`] plays a game and keeps each search
//! ([`PlayedGame`]); [`records`] turns a played game into the records of
//! its searched positions; [`search_again`] relabels them with deeper
//! searches.
//!
//! A game starts from the empty board: its first placements are random
//! (for variety), the rest of the placement phase and the whole movement
//! phase are searched to a fixed depth, so that the boards the movement
//! phase starts from are boards a real placement phase reaches. Every
//! position where the side to move has a choice is recorded. Each game
//! draws its random choices from a stream of its own (the seed and the
//! game's number), so game `n` is the same game however the games are
//! shared out among threads, runs or machines.
//!
//! The records are written in a fixed binary form ([`RECORD_BYTES`] bytes
//! each after a [`HEADER`]) that the trainer in `train/` reads with numpy.

use dvonn_core::{Author, Cell, Color, Game, Phase, Position};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::inputs::stack_byte;
use crate::engine::{Engine, EngineConfig};
use crate::eval::{FEATURES, Features, features};
use crate::limits::Limits;
use crate::score::Score;

/// The first bytes of a data file: a magic string, then the format's
/// version and the size of a record (both `u32`, little-endian).
pub const HEADER: [u8; 16] = {
    let mut header = *b"DVONNDAT\x01\x00\x00\x00\x00\x00\x00\x00";
    header[12] = RECORD_BYTES as u8;
    header
};

/// Bytes per record: the 49 stack bytes, flags, ply, game, score, depth,
/// whether the score is proven, the final margin, the 11 features, and
/// one byte of padding.
pub const RECORD_BYTES: usize = 49 + 1 + 2 + 4 + 2 + 1 + 1 + 1 + 2 * FEATURES + 1;

/// One recorded position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position.
    pub position: Position,
    /// Plies played since the empty board.
    pub ply: u16,
    /// The game's number.
    pub game: u32,
    /// The score of the search that chose the move, for the side to move.
    pub score: Score,
    /// The depth that search completed.
    pub depth: u8,
    /// Whether the score is the proven final margin.
    pub proven: bool,
    /// The final margin of the game, in pieces, for the side to move.
    pub margin: i8,
}

impl Record {
    /// The record in its binary form (little-endian): the stack byte of
    /// each cell in canonical order ([`stack_byte`]), a flag byte (bit 0:
    /// Black to move, bit 1: movement phase), the ply (`u16`), the game
    /// (`u32`), the score in centipieces (`i16`), the depth, 1 when proven,
    /// the margin (`i8`), the [features](crate::eval::Feature) for the side
    /// to move (`i16` each) and a zero byte.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut bytes = [0; RECORD_BYTES];
        for (byte, cell) in bytes.iter_mut().zip(Cell::ALL) {
            *byte = stack_byte(self.position.stack_at(cell));
        }
        let position = &self.position;
        bytes[49] =
            u8::from(position.side_to_move() == Color::Black) | u8::from(position.phase() == Phase::Movement) << 1;
        bytes[50..52].copy_from_slice(&self.ply.to_le_bytes());
        bytes[52..56].copy_from_slice(&self.game.to_le_bytes());
        let score = self.score.centipieces().clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        bytes[56..58].copy_from_slice(&score.to_le_bytes());
        bytes[58] = self.depth;
        bytes[59] = u8::from(self.proven);
        bytes[60] = self.margin as u8;
        let features: Features = features(position);
        for (i, value) in features.iter().enumerate() {
            let value = (*value).clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            bytes[61 + 2 * i..63 + 2 * i].copy_from_slice(&value.to_le_bytes());
        }
        bytes
    }
}

/// How the games are played.
///
/// New settings may be added in any release: start from
/// [`DataPlan::default()`] and chain the `with_*` setters.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DataPlan {
    /// Search depth of every move.
    pub depth: u32,
    /// The fewest and the most random placements at the start of a game
    /// (each game draws its number in this range).
    pub random_placements: (u32, u32),
    /// The share of the later moves, in either phase, played at random.
    pub random_share: f64,
    /// Seed of the random choices; game `n` uses stream `n` of it.
    pub seed: u64,
    /// The players' engine (threads, table, evaluation).
    pub engine: EngineConfig,
}

impl Default for DataPlan {
    fn default() -> DataPlan {
        DataPlan {
            depth: 6,
            random_placements: (4, 10),
            random_share: 0.02,
            seed: 1,
            engine: EngineConfig::default().with_hash_mb(16),
        }
    }
}

setters! {
    impl DataPlan {
        /// Sets the search depth of every move.
        with_depth(depth: u32);
        /// Sets the range of random placements at the start of a game.
        with_random_placements(random_placements: (u32, u32));
        /// Sets the share of later moves played at random.
        with_random_share(random_share: f64);
        /// Sets the seed.
        with_seed(seed: u64);
    }
}

impl DataPlan {
    /// Sets the players' engine.
    #[must_use]
    pub fn with_engine(mut self, engine: EngineConfig) -> DataPlan {
        self.engine = engine;
        self
    }

    /// An engine for [`DataPlan::play`]: one per thread.
    pub fn new_engine(&self) -> Engine {
        Engine::new(self.engine.clone().with_threads(1)).expect("a small table and one thread")
    }

    /// Plays game number `game` with `engine`.
    pub fn play(&self, game: u32, engine: &mut Engine) -> PlayedGame {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(u64::from(game));
        let (fewest, most) = self.random_placements;
        let opening = rng.random_range(fewest..=most.max(fewest));
        engine.new_game();
        let mut played = Game::new(Position::new());
        let mut searches = Vec::new();
        while !played.position().is_game_over() {
            let position = *played.position();
            let moves = position.legal_moves();
            let random = (played.len() as u32) < opening || rng.random_bool(self.random_share);
            let (mv, search) = if moves.len() == 1 {
                (moves[0], None)
            } else {
                let result = engine.search(&position, &Limits::depth(self.depth), &mut ());
                let search = Searched { score: result.score, depth: result.depth.min(255) as u8, proven: result.exact };
                let best = result.best_move.expect("the game is not over");
                (if random { *moves.choose(&mut rng).expect("a move") } else { best }, Some(search))
            };
            played.play(mv, Author::Program).expect("a legal move");
            searches.push(search);
        }
        PlayedGame { game: played, searches }
    }
}

/// The search of a position of a self-play game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The score, for the side to move.
    pub score: Score,
    /// The depth the search completed.
    pub depth: u8,
    /// Whether the score is the proven final margin.
    pub proven: bool,
}

/// A self-play game and the search of each of its positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The game, played to its end.
    pub game: Game,
    /// `searches[i]`: the search of the position before move `i`; `None`
    /// where the move was the only one.
    pub searches: Vec<Option<Searched>>,
}

/// The records of the searched positions of `game`, number `number`, whose
/// searches are `searches` (as in [`PlayedGame`]); `None` when the game was
/// not played to its end (it has no final margin).
pub fn records(game: &Game, searches: &[Option<Searched>], number: u32) -> Option<Vec<Record>> {
    let white_margin = game.outcome().white_margin()?;
    let records = game
        .positions()
        .iter()
        .zip(searches)
        .enumerate()
        .filter_map(|(ply, (position, search))| {
            let search = search.as_ref()?;
            let margin = if position.side_to_move() == Color::White { white_margin } else { -white_margin };
            Some(Record {
                position: *position,
                ply: ply as u16,
                game: number,
                score: search.score,
                depth: search.depth,
                proven: search.proven,
                margin: margin as i8,
            })
        })
        .collect();
    Some(records)
}

/// Searches the movement-phase positions of `records`, the records of one
/// game in the order played, again to `depth` with `engine`, and puts
/// those searches in place of the ones that chose the moves: labels from
/// deeper searches than a game's own. The table is cleared before the
/// first position and kept from one to the next, so the new labels depend
/// on the game alone, not on which engine searched it.
pub fn search_again(records: &mut [Record], engine: &mut Engine, depth: u32) {
    engine.new_game();
    for record in records.iter_mut().filter(|record| record.position.phase() == Phase::Movement) {
        let result = engine.search(&record.position, &Limits::depth(depth), &mut ());
        record.score = result.score;
        record.depth = result.depth.min(255) as u8;
        record.proven = result.exact;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_the_same_whoever_plays_it() {
        let plan = DataPlan::default().with_depth(1).with_seed(3);
        let mut engine = plan.new_engine();
        let first = plan.play(7, &mut engine);
        let again = plan.play(7, &mut plan.new_engine());
        let other = plan.play(8, &mut engine);
        assert_eq!(first, again);
        assert_ne!(first, other);
        assert_eq!(first.searches.len(), first.game.len());
        assert!(first.game.position().is_game_over());
        let records = records(&first.game, &first.searches, 7).unwrap();
        assert!(records.len() > 40, "placements and movements: {}", records.len());
        assert_eq!(records.len(), first.searches.iter().flatten().count());
        // The margin is the game's, from each side.
        let white = first.game.outcome().white_margin().unwrap();
        for record in &records {
            let side = if record.position.side_to_move() == Color::White { 1 } else { -1 };
            assert_eq!(i64::from(record.margin) * side, white);
            assert_eq!(&record.position, &first.game.positions()[usize::from(record.ply)]);
        }
    }

    #[test]
    fn searching_again_relabels_the_movement_phase_only() {
        let plan = DataPlan::default().with_depth(1).with_seed(5);
        let played = plan.play(2, &mut plan.new_engine());
        let shallow = records(&played.game, &played.searches, 2).unwrap();
        let mut deeper = shallow.clone();
        search_again(&mut deeper, &mut plan.new_engine(), 3);
        let mut again = shallow.clone();
        search_again(&mut again, &mut plan.new_engine(), 3);
        assert_eq!(deeper, again, "the same labels from another engine");
        let mut movement = 0;
        for (before, after) in shallow.iter().zip(&deeper) {
            assert_eq!(
                (before.position, before.ply, before.game, before.margin),
                (after.position, after.ply, after.game, after.margin)
            );
            if before.position.phase() == Phase::Movement {
                movement += 1;
                assert!(after.depth >= 3 || after.proven, "ply {}: depth {}", after.ply, after.depth);
            } else {
                assert_eq!(before, after, "a placement keeps its label");
            }
        }
        assert!(movement > 10, "{movement} movement positions");
        let changed = shallow.iter().zip(&deeper).filter(|(before, after)| before.score != after.score).count();
        assert!(changed > 0, "a deeper search changes some scores");
    }

    #[test]
    fn records_have_their_documented_layout() {
        let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
        let record = Record {
            position,
            ply: 49,
            game: 70_000,
            score: Score::from_centipieces(-150),
            depth: 6,
            proven: false,
            margin: -3,
        };
        let bytes = record.to_bytes();
        let at = |cell: &str| bytes[cell.parse::<Cell>().unwrap().index()];
        assert_eq!(at("A1"), 0x41, "a white piece");
        assert_eq!(at("B1"), 0x01, "a black piece");
        assert_eq!(at("C2"), 0x81, "a lone DVONN piece");
        assert_eq!(bytes[49], 0b10, "White to move, movement phase");
        assert_eq!(u16::from_le_bytes([bytes[50], bytes[51]]), 49);
        assert_eq!(u32::from_le_bytes(bytes[52..56].try_into().unwrap()), 70_000);
        assert_eq!(i16::from_le_bytes([bytes[56], bytes[57]]), -150);
        assert_eq!((bytes[58], bytes[59], bytes[60] as i8), (6, 0, -3));
        assert_eq!(i16::from_le_bytes([bytes[61 + 2 * 10], bytes[62 + 2 * 10]]), 1, "tempo");
        assert_eq!(&HEADER[..8], b"DVONNDAT");
        assert_eq!(u32::from_le_bytes(HEADER[8..12].try_into().unwrap()), 1, "the format's version");
        assert_eq!(u32::from_le_bytes(HEADER[12..16].try_into().unwrap()) as usize, RECORD_BYTES);
    }
}
