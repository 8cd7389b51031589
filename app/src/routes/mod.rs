//! One module per page.

pub mod about_dictionaries;
pub mod account;
pub mod home;
pub mod invite;
pub mod lobby;
pub mod my_games;
pub mod not_found;
