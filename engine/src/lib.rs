//! Move generation and bots, built on the `rules` crate.
//!
//! The generator and the bot levels arrive with their own issue; this crate exists now so that the
//! workspace has its final shape and the server can depend on it from the start.
#![deny(missing_docs)]
