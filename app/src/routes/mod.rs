//! One module per page.

pub mod about_dictionaries;
pub mod account;
pub mod game;
pub mod home;
pub mod invite;
pub mod lobby;
pub mod my_games;
pub mod new_game;
pub mod not_found;
