//! The board as a text diagram: dvonn-core's, re-exported for the commands.

pub use dvonn_core::notation::diagram::{DiagramOptions, diagram, status};
