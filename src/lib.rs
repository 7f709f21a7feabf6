#![doc = include_str!("../README.md")]

pub use dvonn_core as core;
