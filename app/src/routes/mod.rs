//! One module per page.

pub mod about_dictionaries;
pub mod home;
pub mod not_found;
