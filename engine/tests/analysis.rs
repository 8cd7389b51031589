//! A finished game's record and analysis: the GCG export reads back as the same game, the
//! analysis sees only the analysed player's racks, and a bot that always plays the top score
//! leaves nothing on the table.

use engine::{
    analysis::{summarise, turns_of, Analyser, TOP},
    selfplay::play_game,
    Level,
};
use rules::{
    game::TurnEvent,
    notation::{export_game, parse_move, play_notation, read_game, RecordedMove},
    Direction, Language, Pos, RuleSet, Variant,
};
use support::{english, trie_of, MATCH_VARIANTS};

mod support;

#[test]
fn an_exported_game_reads_back_as_the_same_game() {
    let lexicon = english();
    for variant in MATCH_VARIANTS {
        let rules = RuleSet::new(variant);
        let trie = trie_of(&lexicon, &rules);
        let record = play_game(variant, [Level::Club, Level::Expert], &trie, &lexicon, 7);
        assert!(record.finished);
        let (config, actions) = &record.log;
        let state = rules::GameState::replay(config.clone(), actions, &lexicon).unwrap();
        // Seat 0 reads its own export: its racks in full, the other's only as played.
        let text = export_game(config, actions, &["Ann", "Bo"], &lexicon, |s| s == 0).unwrap();
        let read = read_game(&text, rules.tiles).unwrap();
        assert_eq!(read.len(), state.history().len(), "{text}");
        for (turn, record) in read.iter().zip(state.history()) {
            assert_eq!(turn.seat, record.seat);
            assert_eq!(turn.play, RecordedMove::of(&record.event), "{text}");
            if let TurnEvent::Play { total, .. } = record.event {
                assert_eq!(turn.points, total);
            }
            if turn.total.is_some() {
                assert_eq!(turn.total, Some(record.scores[usize::from(record.seat)]));
            }
        }
        // The other seat's rack fields hold no more tiles than its plays placed.
        for line in text.lines().filter(|l| l.starts_with(">p2:")) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() == 6 {
                let (rack, word) = (fields[1], fields[3]);
                let placed = word.chars().filter(|c| *c != '.').count();
                assert!(
                    rack.chars().filter(|c| *c != '>').count() <= placed,
                    "{line}"
                );
            }
        }
        assert!(text
            .lines()
            .any(|l| l.starts_with(">p1:") && l.split_whitespace().count() == 6));
    }
}

/// Regression: a play was written from its first placed tile, so the letters it reached over
/// before it (and after its last) were missing: INPUT down through an I read `H9 NPUT`. In
/// self-played games of every ruleset, each play's written word is the whole word on the board
/// after it, and reads back as the same tiles.
#[test]
fn every_play_is_written_as_its_whole_word_in_every_ruleset() {
    let lexicon = english();
    let variants = [
        Variant::Classic,
        Variant::AlfaKraft {
            language: Language::English,
        },
        Variant::Feud {
            language: Language::English,
            random_board: true,
        },
        Variant::Alfapet {
            hand_size: 8,
            special_tiles: true,
        },
        Variant::LongWords { hard_mode: false },
    ];
    let mut reached_over = 0;
    for variant in variants {
        let rules = RuleSet::new(variant);
        let trie = trie_of(&lexicon, &rules);
        for seed in 1..=3 {
            let record = play_game(variant, [Level::Club, Level::Expert], &trie, &lexicon, seed);
            let (config, actions) = &record.log;
            let mut state = rules::GameState::new(config.clone());
            for action in actions {
                let before = state.board().clone();
                let turns = state.history().len();
                state.apply(action, &lexicon).unwrap();
                for turn in &state.history()[turns..] {
                    let TurnEvent::Play { tiles: placed, .. } = &turn.event else {
                        continue;
                    };
                    if placed.iter().any(|t| t.arrow) {
                        continue; // an arrow's word bends at its corner
                    }
                    let written = play_notation(&before, placed, rules.tiles);
                    let (coordinate, word) = written.split_once(' ').unwrap();
                    let read = parse_move(&before, rules.tiles, coordinate, word).unwrap();
                    let letters: Vec<_> = placed
                        .iter()
                        .filter(|t| t.tile.letter().is_some())
                        .map(|t| t.pos)
                        .collect();
                    let read_cells: Vec<_> = read.tiles.iter().map(|t| t.pos).collect();
                    assert_eq!(read_cells, letters, "{variant:?}: {written}");
                    // The word ends where the board's run does, at both ends.
                    let dir = match coordinate.starts_with(|c: char| c.is_ascii_digit()) {
                        true => Direction::Across,
                        false => Direction::Down,
                    };
                    let start = read_start(coordinate);
                    let length = word.chars().count() as u8;
                    let end = (1..length).fold(start, |p, _| p.step(dir, true).unwrap());
                    let after = state.board();
                    for outside in [start.step(dir, false), end.step(dir, true)] {
                        assert!(
                            outside.is_none_or(|p| after.tile(p).is_none()),
                            "{variant:?}: {written} stops short of its word"
                        );
                    }
                    if word.starts_with('.') || word.ends_with('.') {
                        reached_over += 1;
                    }
                }
            }
        }
    }
    assert!(
        reached_over > 0,
        "some play reached over a letter at an end"
    );
}

/// The cell a GCG coordinate names (`8H` or `H8`).
fn read_start(coordinate: &str) -> Pos {
    let (letters, digits): (String, String) =
        coordinate.chars().partition(char::is_ascii_alphabetic);
    let col = letters.as_bytes()[0] - b'A';
    let row = digits.parse::<u8>().unwrap() - 1;
    Pos::new(row, col)
}

#[test]
fn the_club_bot_leaves_nothing_on_the_table_and_racks_stay_their_owners() {
    let lexicon = english();
    let variant = Variant::Classic;
    let rules = RuleSet::new(variant);
    let trie = trie_of(&lexicon, &rules);
    // Seed 2: the Club bot (the first level) sits in seat 0.
    let record = play_game(variant, [Level::Club, Level::Beginner], &trie, &lexicon, 2);
    let (config, actions) = &record.log;
    let turns = turns_of(config.clone(), actions, &[0], &lexicon).unwrap();
    assert!(turns.len() >= 5);
    assert!(turns.iter().all(|t| t.seat == 0), "only seat 0's turns");
    let mut analyser = Analyser::new(&trie, &rules);
    let analysed: Vec<_> = turns.iter().map(|t| analyser.turn(t)).collect();
    for turn in &analysed {
        assert!(turn.best.len() <= TOP);
        assert!(turn.best.windows(2).all(|w| w[0].score >= w[1].score));
        if turn.played != "-" && !turn.played.starts_with('-') {
            assert_eq!(turn.missed, 0, "the Club bot plays the top score: {turn:?}");
            assert_eq!(turn.best[0].score, turn.score);
        }
    }
    let beginner = turns_of(config.clone(), actions, &[1], &lexicon).unwrap();
    let analysed_beginner: Vec<_> = beginner.iter().map(|t| analyser.turn(t)).collect();
    let totals = summarise(&analysed_beginner, 2);
    assert_eq!(totals[0].turns, 0);
    assert!(
        totals[1].missed > 50,
        "a beginner leaves points: {:?}",
        totals[1]
    );
    // Every rack analysed is the one its owner held: its tiles make the move played.
    for turn in beginner.iter().filter(|t| !t.played.starts_with('-')) {
        let word = turn.played.split_whitespace().nth(1).unwrap();
        for ch in word.chars().filter(|c| *c != '.') {
            let tile = if ch.is_lowercase() {
                rules::HandTile::Blank
            } else {
                rules::HandTile::Letter(rules.tiles.letter(ch).unwrap())
            };
            assert!(turn.rack.contains(&tile), "{turn:?}");
        }
    }
}
