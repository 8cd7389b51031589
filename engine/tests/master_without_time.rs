//! A Master bot given no time at all (a server too busy to run its low-priority thread) stops
//! before its first round of playouts ends and plays on static equity: the same move whatever
//! its random deals would have been, legal to the end of the game. Its own test binary, since
//! the Master's budget is the whole process's.

use engine::{bot::set_master_budget, Bot, Level};
use rules::{game::GameConfig, Format, GameState, RuleSet, Status};
use support::{english, trie_of, MATCH_VARIANTS};

mod support;

#[test]
fn a_master_with_no_time_plays_static_equity_legally_to_the_end() {
    set_master_budget(std::time::Duration::ZERO);
    let lexicon = english();
    for variant in MATCH_VARIANTS {
        let rules = RuleSet::new(variant);
        let trie = trie_of(&lexicon, &rules);
        let mut state = GameState::new(GameConfig {
            variant,
            dictionary: "en".into(),
            seed: 21,
            players: 2,
            first_seat: 0,
            format: Format::Casual,
        });
        // Two Masters that would deal differently: with any playout their choices part.
        let mut masters = [
            Bot::new(Level::Master, &trie, &rules, 1),
            Bot::new(Level::Master, &trie, &rules, 2),
        ];
        let mut turns = 0;
        while *state.status() == Status::Playing {
            let view = state.view(state.to_move());
            let actions = masters[0].decide_turn(&view);
            assert_eq!(
                actions,
                masters[1].decide_turn(&view),
                "{variant:?}, turn {turns}"
            );
            for action in actions {
                state
                    .apply(&action, &lexicon)
                    .unwrap_or_else(|e| panic!("{variant:?}: {action:?} refused: {e}"));
            }
            turns += 1;
            assert!(turns < 200, "{variant:?} did not finish");
        }
        assert!(state.scores().iter().any(|&s| s > 0), "{variant:?}");
    }
}
