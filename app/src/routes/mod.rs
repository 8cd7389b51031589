//! One module per page.

pub mod about_dictionaries;
pub mod account;
#[cfg(feature = "ssr")]
pub mod admin;
pub mod game;
pub mod home;
pub mod invite;
pub mod lobby;
pub mod my_games;
pub mod my_reports;
pub mod new_game;
pub mod not_found;
