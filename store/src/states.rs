//! The states of games lately committed, kept in memory by version, so that a commit or a page
//! load replays nothing: replaying the whole log (every move judged again against the dictionary)
//! was most of a commit's time (issue 18).
//!
//! Safe across instances: a state is used only when its version is the version the database
//! holds, read in the same transaction, and every action appended bumps that version.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use rules::GameState;

/// Games kept at most: a few thousand games in play at once; one past the limit pushes out an
/// arbitrary other (it is replayed when next needed), so memory stays bounded whatever comes.
const KEPT: usize = 2048;

/// Game states by game id, shared by every clone.
#[derive(Debug, Clone, Default)]
pub struct States(Arc<Mutex<HashMap<String, GameState>>>);

impl States {
    /// The state of game `id` at `version`, if kept.
    pub fn get(&self, id: &str, version: u32) -> Option<GameState> {
        let states = self.0.lock().unwrap_or_else(|e| e.into_inner());
        states
            .get(id)
            .filter(|state| state.version() == version)
            .cloned()
    }

    /// Keeps `state` as game `id`'s latest.
    pub fn put(&self, id: &str, state: GameState) {
        let mut states = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if states.len() >= KEPT && !states.contains_key(id) {
            if let Some(other) = states.keys().next().cloned() {
                states.remove(&other);
            }
        }
        states.insert(id.to_string(), state);
    }
}

#[cfg(test)]
mod tests {
    use rules::{game::Format, GameConfig, Variant};

    use super::*;

    fn state(seed: u64) -> GameState {
        GameState::new(GameConfig {
            variant: Variant::Classic,
            dictionary: "en".into(),
            seed,
            players: 2,
            first_seat: 0,
            format: Format::Casual,
        })
    }

    #[test]
    fn a_state_is_kept_by_version_and_the_cache_stays_bounded() {
        let states = States::default();
        states.put("g", state(1));
        assert!(states.get("g", 0).is_some());
        // Another version (another instance committed meanwhile) is not the kept one.
        assert!(states.get("g", 1).is_none());
        assert!(states.get("other", 0).is_none());
        for n in 0..KEPT + 100 {
            states.put(&format!("game {n}"), state(n as u64));
        }
        assert_eq!(states.0.lock().unwrap().len(), KEPT);
    }
}
