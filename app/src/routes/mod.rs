//! One module per page.

pub mod about_dictionaries;
pub mod account;
#[cfg(feature = "ssr")]
pub mod admin;
pub mod daily_cards;
#[cfg(feature = "ssr")]
pub mod daily_standings;
#[cfg(feature = "ssr")]
pub mod finished_turn;
pub mod game;
pub mod help;
pub mod home;
pub mod invite;
#[cfg(feature = "ssr")]
pub mod leaderboard;
pub mod lobby;
pub mod my_games;
pub mod my_reports;
pub mod new_game;
pub mod not_found;
#[cfg(feature = "ssr")]
pub mod plain;
pub mod player;
#[cfg(feature = "ssr")]
pub mod profile;
