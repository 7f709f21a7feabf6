//! Fitting [`Weights`](super::Weights) to self-play games.
