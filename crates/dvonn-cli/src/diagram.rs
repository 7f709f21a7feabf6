//! The board as a text diagram for the terminal.
