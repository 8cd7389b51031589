//! The server's background work, off the request path: bot turns ([`bots`]), time-outs, paused
//! clocks and the Blitz countdown ([`clock`]), the Daily Challenge's bot totals and reviews
//! ([`daily`]), keeping this instance's dictionaries in step with the database
//! ([`dictionary_sync`]), league seasons and tournament rounds ([`competitions`]), the thread the engine thinks on
//! ([`thinking`]), the engine's look at finished games for the statistics ([`move_values`]),
//! mail when it is configured ([`mail`]) and push notifications ([`push`]).
//! Every instance runs each of them; the store's conditional writes make the work happen once.

pub mod bots;
pub mod clock;
pub mod competitions;
pub mod daily;
pub mod dictionary_sync;
pub mod mail;
pub mod move_values;
pub mod push;
pub mod thinking;
