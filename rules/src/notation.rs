//! Plain-text notation: positions in the spirit of CGP, and game records in the spirit of GCG.
//!
//! Position: `<rows> <rack>[/<rack>…] [<score>/<score>…] [<scoreless turns>]`, rows top to bottom
//! separated by `/`, a number for a run of empty cells, an upper-case letter for a tile, lower case
//! for a blank, `#` for an Alfapet stop; a rack's blank is `?`. Alfa Power and Golden Tiles read
//! back as ordinary tiles and arrows are not written: the notation carries letters, not history.

use std::fmt::Write as _;

use crate::{
    board::{Board, BoardTile, Direction, Square, TileKind},
    game::{Action, EndReason, GameConfig, GameState, Status, TurnEvent},
    lexicon::Lexicon,
    play::Played,
    ruleset::RuleSet,
    tiles::{HandTile, TileSet},
    Pos,
};

/// A board with racks and scores: what the engine's positions files hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The board.
    pub board: Board,
    /// Each player's rack, the player to move first.
    pub racks: Vec<Vec<HandTile>>,
    /// Each player's score, in rack order.
    pub scores: Vec<i32>,
    /// Scoreless turns in a row.
    pub scoreless_turns: u8,
}

/// Text that is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Wrong number of rows or cells.
    #[error("expected {height} rows of {width} cells")]
    Shape {
        /// Rows expected.
        height: u8,
        /// Cells per row expected.
        width: u8,
    },
    /// A character the tile set lacks.
    #[error("'{0}' is not a tile of this set")]
    UnknownTile(char),
    /// A missing or malformed field.
    #[error("malformed {0}")]
    Malformed(&'static str),
}

fn write_tile(out: &mut String, tiles: &TileSet, tile: HandTile) {
    match tile {
        HandTile::Letter(l) => out.push(tiles.char_of(l)),
        HandTile::Blank => out.push('?'),
        HandTile::Arrow => out.push('>'),
        HandTile::Stop => out.push('#'),
    }
}

/// The board's rows in position notation.
pub fn board_to_text(board: &Board, tiles: &TileSet) -> String {
    let mut out = String::new();
    for row in 0..board.height() {
        if row > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for col in 0..board.width() {
            let square = board.square(Pos::new(row, col));
            if square == Square::Empty {
                empty += 1;
                continue;
            }
            if empty > 0 {
                write!(out, "{empty}").unwrap();
                empty = 0;
            }
            match square {
                Square::Tile(t) if t.kind == TileKind::Blank => {
                    out.push(crate::case::lower(tiles.char_of(t.letter)))
                }
                Square::Tile(t) => out.push(tiles.char_of(t.letter)),
                Square::Stop => out.push('#'),
                Square::Empty => {}
            }
        }
        if empty > 0 {
            write!(out, "{empty}").unwrap();
        }
    }
    out
}

impl Position {
    /// The position in text.
    pub fn to_text(&self, tiles: &TileSet) -> String {
        let mut out = board_to_text(&self.board, tiles);
        out.push(' ');
        for (i, rack) in self.racks.iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            for &tile in rack {
                write_tile(&mut out, tiles, tile);
            }
        }
        let scores: Vec<String> = self.scores.iter().map(i32::to_string).collect();
        write!(out, " {} {}", scores.join("/"), self.scoreless_turns).unwrap();
        out
    }

    /// Reads a position for a ruleset's board and tile set. Racks, scores and the scoreless count
    /// are optional after the board (one empty rack, zeros).
    pub fn parse(text: &str, rules: &RuleSet) -> Result<Position, NotationError> {
        let tiles = rules.tiles;
        let mut fields = text.split_whitespace();
        let rows_text = fields.next().ok_or(NotationError::Malformed("board"))?;
        let mut board = Board::new(rules.layout, rules.start_premium);
        let shape = NotationError::Shape {
            height: board.height(),
            width: board.width(),
        };
        let rows: Vec<&str> = rows_text.split('/').collect();
        if rows.len() != usize::from(board.height()) {
            return Err(shape);
        }
        for (r, row) in rows.iter().enumerate() {
            let mut col = 0usize;
            let mut chars = row.chars().peekable();
            while let Some(ch) = chars.next() {
                if let Some(d) = ch.to_digit(10) {
                    let mut run = d as usize;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        run = run * 10 + d as usize;
                        chars.next();
                    }
                    col += run;
                    continue;
                }
                if col >= usize::from(board.width()) {
                    return Err(shape);
                }
                let square = if ch == '#' {
                    Square::Stop
                } else {
                    let letter = tiles.letter(ch).ok_or(NotationError::UnknownTile(ch))?;
                    let kind = if ch.is_lowercase() {
                        TileKind::Blank
                    } else {
                        TileKind::Normal
                    };
                    Square::Tile(BoardTile {
                        letter,
                        kind,
                        arrow: false,
                        printed: None,
                    })
                };
                board.set(Pos::new(r as u8, col as u8), square);
                col += 1;
            }
            if col != usize::from(board.width()) {
                return Err(shape);
            }
        }
        let racks = match fields.next() {
            Some(text) => text
                .split('/')
                .map(|rack| parse_rack(rack, tiles))
                .collect::<Result<_, _>>()?,
            None => vec![Vec::new()],
        };
        let scores = match fields.next() {
            Some(text) => text
                .split('/')
                .map(|s| s.parse().map_err(|_| NotationError::Malformed("scores")))
                .collect::<Result<_, _>>()?,
            None => vec![0; usize::max(1, Vec::<Vec<HandTile>>::len(&racks))],
        };
        let scoreless_turns = match fields.next() {
            Some(text) => text
                .parse()
                .map_err(|_| NotationError::Malformed("scoreless turns"))?,
            None => 0,
        };
        Ok(Position {
            board,
            racks,
            scores,
            scoreless_turns,
        })
    }
}

/// A rack: letters, `?` for a blank, `>` arrow, `#` stop.
pub fn parse_rack(text: &str, tiles: &TileSet) -> Result<Vec<HandTile>, NotationError> {
    text.chars()
        .map(|ch| match ch {
            '?' => Ok(HandTile::Blank),
            '>' => Ok(HandTile::Arrow),
            '#' => Ok(HandTile::Stop),
            _ => tiles
                .letter(ch)
                .map(HandTile::Letter)
                .ok_or(NotationError::UnknownTile(ch)),
        })
        .collect()
}

/// A cell as GCG writes it: row number then column letter for across (`8H`), the reverse for down.
pub fn coordinate(pos: Pos, dir: Direction) -> String {
    let col = char::from(b'A' + pos.col);
    match dir {
        Direction::Across => format!("{}{col}", pos.row + 1),
        Direction::Down => format!("{col}{}", pos.row + 1),
    }
}

/// The whole game as text in the spirit of GCG: one line per turn with the rack before it, the
/// play, its points and the running total; then the end-of-game adjustments.
///
/// A rack is written in full only for the seats `shown` accepts (the reader's own); for the
/// others the rack field holds just the tiles the turn played, and an exchange just its count,
/// which is all a finished game's public record says of them.
pub fn export_game<L: Lexicon + ?Sized>(
    config: &GameConfig,
    actions: &[Action],
    names: &[&str],
    lexicon: &L,
    shown: impl Fn(crate::Seat) -> bool,
) -> Result<String, crate::RuleError> {
    let mut state = GameState::new(config.clone());
    let tiles = state.rules().tiles;
    let mut out = String::new();
    writeln!(out, "#character-encoding UTF-8").unwrap();
    writeln!(out, "#ruleset {} {:?}", state.rules().name, config.variant).unwrap();
    writeln!(out, "#lexicon {}", config.dictionary).unwrap();
    for seat in 0..config.players {
        let name = names.get(usize::from(seat)).copied().unwrap_or("player");
        writeln!(out, "#player{} p{} {name}", seat + 1, seat + 1).unwrap();
    }
    for action in actions {
        let seat = action.seat();
        let mut rack = String::new();
        for &tile in state.hand(seat) {
            write_tile(&mut rack, tiles, tile);
        }
        let turns_before = state.history().len();
        let board_before = state.board().clone();
        state.apply(action, lexicon)?;
        for record in &state.history()[turns_before..] {
            let who = record.seat;
            let open = shown(who);
            let total = record.scores[usize::from(who)];
            let mut rack = if who == seat && open {
                rack.clone()
            } else {
                String::new()
            };
            let line = match &record.event {
                TurnEvent::Play {
                    tiles: placed,
                    total: points,
                    ..
                } => {
                    if !open {
                        for tile in placed {
                            write_played(&mut rack, tiles, tile);
                        }
                    }
                    format!(
                        "{} +{points} {total}",
                        play_notation(&board_before, placed, tiles)
                    )
                }
                TurnEvent::Pass { .. } | TurnEvent::TurnMissed | TurnEvent::Skipped => {
                    format!("- +0 {total}")
                }
                TurnEvent::Exchange { count } | TurnEvent::Swap { count } => {
                    let mut given = String::new();
                    match action {
                        Action::Exchange { tiles: t, .. } | Action::UseSwap { tiles: t, .. }
                            if open =>
                        {
                            for &tile in t {
                                write_tile(&mut given, tiles, tile);
                            }
                        }
                        _ => given = count.to_string(),
                    }
                    format!("-{given} +0 {total}")
                }
                TurnEvent::Challenge {
                    challenged,
                    withdrawn,
                } => {
                    let score = record.scores[usize::from(*challenged)];
                    if *withdrawn {
                        format!("-- p{} withdrawn {score}", challenged + 1)
                    } else {
                        format!("# challenge of p{} failed", challenged + 1)
                    }
                }
                TurnEvent::Resign => format!("# resigns {total}"),
                TurnEvent::TimedOut => format!("# time ran out {total}"),
            };
            // A line that says rather than plays carries no rack.
            let rack = if rack.is_empty() || line.starts_with('#') {
                String::new()
            } else {
                format!(" {rack}")
            };
            writeln!(out, ">p{}:{rack} {line}", who + 1).unwrap();
        }
    }
    if let Status::Over(outcome) = state.status() {
        let reason = match outcome.reason {
            EndReason::WentOut(s) => format!("p{} went out", s + 1),
            EndReason::Passes => "pass limit".to_string(),
            EndReason::Resigned(s) => format!("p{} resigned", s + 1),
            EndReason::TimedOut(s) => format!("p{} ran out of time", s + 1),
            EndReason::Strikes(s) => format!("p{} struck out", s + 1),
            EndReason::TurnLimit => "turn limit".to_string(),
        };
        let finals: Vec<String> = outcome.final_scores.iter().map(i32::to_string).collect();
        writeln!(out, "#end {reason}; final {}", finals.join("/")).unwrap();
    }
    Ok(out)
}

/// A tile a play took from the hand, as a rack writes it; tiles from the power bar are none.
fn write_played(out: &mut String, tiles: &TileSet, tile: &crate::play::NewTile) {
    match tile.tile {
        Played::Letter(l) => out.push(tiles.char_of(l)),
        Played::Blank(_) => out.push('?'),
        Played::Stop => out.push('#'),
        Played::AlfaPower(_) | Played::Golden(_) => {}
    }
    if tile.arrow {
        out.push('>');
    }
}

/// A play as GCG writes it, on the board it was played on: `8H HO.N` (its coordinate, and its
/// main word with the cells played through as `.` and blanks in lower case).
pub fn play_notation(before: &Board, placed: &[crate::play::NewTile], tiles: &TileSet) -> String {
    let (start, dir, word) = play_text(before, placed, tiles);
    format!("{} {word}", coordinate(start, dir))
}

/// What one turn of a game record did, as [`read_game`] reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordedMove {
    /// Tiles placed (blanks as [`Played::Blank`], every other letter as [`Played::Letter`]).
    Place(Vec<crate::play::NewTile>),
    /// A pass, or a turn lost (hard mode, a failed challenge).
    Pass,
    /// This many tiles exchanged (by the turn or the Swap power).
    Exchange(u8),
    /// This player's last play was challenged off the board.
    Withdrawn(crate::Seat),
    /// A line of its own (a failed challenge, a resignation, the clock): said, not scored.
    Note,
}

impl RecordedMove {
    /// What a turn of the history comes to in a game record: the same, read back from the text.
    pub fn of(event: &TurnEvent) -> RecordedMove {
        match event {
            TurnEvent::Play { tiles, .. } => RecordedMove::Place(
                tiles
                    .iter()
                    .filter(|t| t.tile != Played::Stop)
                    .map(|t| crate::play::NewTile {
                        pos: t.pos,
                        tile: match t.tile {
                            Played::Blank(l) => Played::Blank(l),
                            other => other.letter().map_or(Played::Stop, Played::Letter),
                        },
                        arrow: false,
                    })
                    .collect(),
            ),
            TurnEvent::Pass { .. } | TurnEvent::TurnMissed | TurnEvent::Skipped => {
                RecordedMove::Pass
            }
            TurnEvent::Exchange { count } | TurnEvent::Swap { count } => {
                RecordedMove::Exchange(*count)
            }
            TurnEvent::Challenge {
                challenged,
                withdrawn: true,
            } => RecordedMove::Withdrawn(*challenged),
            TurnEvent::Challenge { .. } | TurnEvent::Resign | TurnEvent::TimedOut => {
                RecordedMove::Note
            }
        }
    }
}

/// One turn line of a game record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedTurn {
    /// Whose turn.
    pub seat: crate::Seat,
    /// What it did.
    pub play: RecordedMove,
    /// The turn's points (0 where the line has none).
    pub points: i32,
    /// The player's total after it, where the line has one.
    pub total: Option<i32>,
}

/// Reads the turns of a game record as [`export_game`] writes it (comments and end lines are
/// skipped). Placements come from the coordinate and the word alone: a `.` is a cell played
/// through, anything else a tile placed.
pub fn read_game(text: &str, tiles: &TileSet) -> Result<Vec<RecordedTurn>, NotationError> {
    let mut turns = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix(">p") else {
            continue;
        };
        let (player, rest) = rest
            .split_once(':')
            .ok_or(NotationError::Malformed("player"))?;
        let seat = player
            .parse::<u8>()
            .ok()
            .and_then(|p| p.checked_sub(1))
            .ok_or(NotationError::Malformed("player"))?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.iter().any(|f| f.starts_with('#')) {
            turns.push(RecordedTurn {
                seat,
                play: RecordedMove::Note,
                points: 0,
                total: None,
            });
            continue;
        }
        if let Some(at) = fields.iter().position(|f| *f == "--") {
            let challenged = fields
                .get(at + 1)
                .and_then(|p| p.strip_prefix('p')?.parse::<u8>().ok()?.checked_sub(1))
                .ok_or(NotationError::Malformed("challenged player"))?;
            turns.push(RecordedTurn {
                seat,
                play: RecordedMove::Withdrawn(challenged),
                points: 0,
                total: None,
            });
            continue;
        }
        // [rack] (coordinate word | -[given]) +points total
        let [.., points, total] = fields[..] else {
            return Err(NotationError::Malformed("turn"));
        };
        let points = points
            .strip_prefix('+')
            .and_then(|p| p.parse().ok())
            .ok_or(NotationError::Malformed("points"))?;
        let total = Some(
            total
                .parse()
                .map_err(|_| NotationError::Malformed("total"))?,
        );
        let middle = &fields[..fields.len() - 2];
        let play = match middle.last() {
            Some(&"-") => RecordedMove::Pass,
            Some(given) if given.starts_with('-') => {
                let given = &given[1..];
                RecordedMove::Exchange(match given.parse::<u8>() {
                    Ok(count) => count,
                    Err(_) => u8::try_from(parse_rack(given, tiles)?.len())
                        .map_err(|_| NotationError::Malformed("exchange"))?,
                })
            }
            Some(word) if middle.len() >= 2 => {
                RecordedMove::Place(read_placement(tiles, middle[middle.len() - 2], word)?)
            }
            _ => return Err(NotationError::Malformed("turn")),
        };
        turns.push(RecordedTurn {
            seat,
            play,
            points,
            total,
        });
    }
    Ok(turns)
}

/// The tiles a written play placed: its coordinate and its word with `.` for cells played
/// through and `#` for a stop.
fn read_placement(
    tiles: &TileSet,
    coordinate: &str,
    word: &str,
) -> Result<Vec<crate::play::NewTile>, NotationError> {
    let (mut pos, dir) = read_coordinate(coordinate)?;
    let mut placed = Vec::new();
    let mut chars = word.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '.' && ch != '#' {
            let letter = tiles.letter(ch).ok_or(NotationError::UnknownTile(ch))?;
            let tile = if ch.is_lowercase() {
                Played::Blank(letter)
            } else {
                Played::Letter(letter)
            };
            placed.push(crate::play::NewTile {
                pos,
                tile,
                arrow: false,
            });
        }
        if chars.peek().is_some() {
            pos = pos
                .step(dir, true)
                .ok_or(NotationError::Malformed("word runs off the board"))?;
        }
    }
    Ok(placed)
}

/// A GCG coordinate: `8H` is row 8, column H, across; `H8` the same cell, down.
fn read_coordinate(coordinate: &str) -> Result<(Pos, Direction), NotationError> {
    let bad = NotationError::Malformed("coordinate");
    let coordinate = coordinate.trim();
    let first = coordinate.chars().next().ok_or(bad.clone())?;
    let (dir, letter_part, number_part) = if first.is_ascii_digit() {
        let split = coordinate
            .find(|c: char| !c.is_ascii_digit())
            .ok_or(bad.clone())?;
        (
            Direction::Across,
            &coordinate[split..],
            &coordinate[..split],
        )
    } else {
        (Direction::Down, &coordinate[..1], &coordinate[1..])
    };
    let row: u8 = number_part
        .parse::<u8>()
        .ok()
        .and_then(|r| r.checked_sub(1))
        .ok_or(bad.clone())?;
    let col = letter_part
        .chars()
        .next()
        .filter(|c| c.is_ascii_uppercase())
        .ok_or(bad)?;
    Ok((Pos::new(row, col as u8 - b'A'), dir))
}

/// Where a play's main word starts, its direction, and the word with played-through tiles as
/// `.`: the whole word, with the tiles already on the board before the first placed one and
/// after the last (`H8 .NPUT` for INPUT played down through an I, not `H9 NPUT`).
fn play_text(
    before: &Board,
    placed: &[crate::play::NewTile],
    tiles: &TileSet,
) -> (Pos, Direction, String) {
    let letters: Vec<_> = placed.iter().filter(|t| t.tile != Played::Stop).collect();
    let Some(first) = letters.iter().map(|t| t.pos).min() else {
        return (Pos::new(0, 0), Direction::Across, String::from("#"));
    };
    let last = letters.iter().map(|t| t.pos).max().unwrap_or(first);
    let on_board = |pos: Pos| before.tile(pos).is_some();
    let dir = if letters.len() > 1 {
        match first.row != last.row {
            true => Direction::Down,
            false => Direction::Across,
        }
    } else {
        // One tile's main word is the longer of the two it may make; across on a tie.
        let reach = |dir: Direction| {
            let mut cells = 0;
            for forward in [false, true] {
                let mut at = first;
                while let Some(next) = at.step(dir, forward).filter(|p| on_board(*p)) {
                    cells += 1;
                    at = next;
                }
            }
            cells
        };
        match reach(Direction::Down) > reach(Direction::Across) {
            true => Direction::Down,
            false => Direction::Across,
        }
    };
    // An arrow's word bends at its corner: it is written from its first tile to its last.
    let straight = !placed.iter().any(|t| t.arrow);
    let (mut start, mut end) = (first, last);
    while let Some(prev) = start.step(dir, false).filter(|p| straight && on_board(*p)) {
        start = prev;
    }
    while let Some(next) = end.step(dir, true).filter(|p| straight && on_board(*p)) {
        end = next;
    }
    let mut word = String::new();
    let mut pos = start;
    loop {
        match placed.iter().find(|t| t.pos == pos) {
            Some(new) => match new.tile {
                Played::Blank(l) => word.push(crate::case::lower(tiles.char_of(l))),
                other => word.push(other.letter().map_or('#', |l| tiles.char_of(l))),
            },
            None if on_board(pos) => word.push('.'),
            None => {}
        }
        if pos >= end {
            break;
        }
        match pos.step(dir, true) {
            Some(next) => pos = next,
            None => break,
        }
    }
    (start, dir, word)
}

/// Reads a play written as GCG does: a coordinate (`8H` across from row 8, column H; `H8` down)
/// and the word as it reads, upper case for tiles from the hand, lower case for blanks, `.` or a
/// letter already there for a cell played through.
pub fn parse_move(
    board: &Board,
    tiles: &TileSet,
    coordinate: &str,
    word: &str,
) -> Result<crate::Placement, NotationError> {
    let (mut pos, dir) = read_coordinate(coordinate)?;
    let mut placement = crate::Placement::default();
    for ch in word.chars() {
        if !board.contains(pos) {
            return Err(NotationError::Malformed("word runs off the board"));
        }
        let on_board = board.tile(pos);
        if let Some(tile) = on_board.filter(|_| ch != '.') {
            if tiles.letter(ch) != Some(tile.letter) {
                return Err(NotationError::Malformed(
                    "a letter differs from the tile already there",
                ));
            }
        }
        let on_board = on_board.is_some();
        if ch != '.' && !on_board {
            let letter = tiles.letter(ch).ok_or(NotationError::UnknownTile(ch))?;
            let tile = if ch.is_lowercase() {
                Played::Blank(letter)
            } else {
                Played::Letter(letter)
            };
            placement.tiles.push(crate::NewTile {
                pos,
                tile,
                arrow: false,
            });
        } else if ch == '.' && !on_board {
            return Err(NotationError::Malformed("'.' on an empty cell"));
        }
        match pos.step(dir, true) {
            Some(next) => pos = next,
            None => break,
        }
    }
    Ok(placement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Variant, WordList};

    #[test]
    fn positions_round_trip() {
        let rules = RuleSet::new(Variant::Classic);
        let text = "15/15/15/15/15/15/15/5HORn6/15/15/15/15/15/15/15 AEINRS?/QUIZ 14/0 0";
        let position = Position::parse(text, &rules).unwrap();
        assert_eq!(position.to_text(rules.tiles), text);
        assert_eq!(position.racks[0].len(), 7);
        assert_eq!(
            position.board.tile(Pos::new(7, 8)).unwrap().kind,
            TileKind::Blank
        );
    }

    #[test]
    fn malformed_positions_say_why() {
        let rules = RuleSet::new(Variant::Classic);
        assert!(matches!(
            Position::parse("15/15", &rules),
            Err(NotationError::Shape { .. })
        ));
        let wide = "16/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
        assert!(matches!(
            Position::parse(wide, &rules),
            Err(NotationError::Shape { .. })
        ));
        let text = "15/15/15/15/15/15/15/7Å7/15/15/15/15/15/15/15";
        assert_eq!(
            Position::parse(text, &rules),
            Err(NotationError::UnknownTile('Å'))
        );
    }

    /// Regression: a word was written from its first placed tile, so INPUT played down through an
    /// I read `H9 NPUT`, and the letters it reached over at either end were lost.
    #[test]
    fn a_play_is_written_as_its_whole_word() {
        let rules = RuleSet::new(Variant::Classic);
        let board = |rows: &str| Position::parse(rows, &rules).unwrap().board;
        let letter = |c| rules.tiles.letter(c).unwrap();
        let play = |cells: &[(u8, u8, char)]| -> Vec<crate::play::NewTile> {
            cells
                .iter()
                .map(|&(row, col, c)| crate::play::NewTile::letter(Pos::new(row, col), letter(c)))
                .collect()
        };
        let i_at_h8 = board("15/15/15/15/15/15/15/7I7/15/15/15/15/15/15/15");
        let input = play(&[(8, 7, 'N'), (9, 7, 'P'), (10, 7, 'U'), (11, 7, 'T')]);
        assert_eq!(play_notation(&i_at_h8, &input, rules.tiles), "H8 .NPUT");
        let p_at_10h = board("15/15/15/15/15/15/15/15/15/7P7/15/15/15/15/15");
        let poor = play(&[(9, 8, 'O'), (9, 9, 'O'), (9, 10, 'R')]);
        assert_eq!(play_notation(&p_at_10h, &poor, rules.tiles), "10H .OOR");
        let t_at_12h = board("15/15/15/15/15/15/15/15/15/15/15/7T7/15/15/15");
        let outer = play(&[(11, 5, 'O'), (11, 6, 'U'), (11, 8, 'E'), (11, 9, 'R')]);
        assert_eq!(play_notation(&t_at_12h, &outer, rules.tiles), "12F OU.ER");
        // Reaching over letters at the end, and one tile: the longer of its two words.
        let horn = board("15/15/15/15/15/15/15/5HORN6/15/15/15/15/15/15/15");
        let re = play(&[(7, 3, 'R'), (7, 4, 'E')]);
        assert_eq!(play_notation(&horn, &re, rules.tiles), "8D RE....");
        let s = play(&[(7, 9, 'S')]);
        assert_eq!(play_notation(&horn, &s, rules.tiles), "8F ....S");
        let a = play(&[(8, 5, 'A')]);
        assert_eq!(play_notation(&horn, &a, rules.tiles), "F8 .A");
        // Each reads back as the same placement.
        for (board, placed) in [(&i_at_h8, &input), (&horn, &re), (&horn, &a)] {
            let written = play_notation(board, placed, rules.tiles);
            let (coordinate, word) = written.split_once(' ').unwrap();
            let read = parse_move(board, rules.tiles, coordinate, word).unwrap();
            assert_eq!(&read.tiles, placed, "{written}");
        }
    }

    #[test]
    fn moves_read_coordinates_both_ways() {
        let rules = RuleSet::new(Variant::Classic);
        let board = Board::new(rules.layout, rules.start_premium);
        let across = parse_move(&board, rules.tiles, "8F", "HORN").unwrap();
        assert_eq!(across.tiles[0].pos, Pos::new(7, 5));
        assert_eq!(across.tiles[3].pos, Pos::new(7, 8));
        let down = parse_move(&board, rules.tiles, "H6", "FaRM").unwrap();
        assert_eq!(down.tiles[1].pos, Pos::new(6, 7));
        assert!(matches!(down.tiles[1].tile, Played::Blank(_)));
        assert!(parse_move(&board, rules.tiles, "Z99", "A").is_err());
    }

    #[test]
    fn export_lists_each_turn_with_rack_and_total() {
        let config = GameConfig {
            variant: crate::Variant::Feud {
                language: crate::Language::English,
                random_board: false,
            },
            dictionary: "test".into(),
            seed: 9,
            players: 2,
            first_seat: 0,
            format: crate::Format::Casual,
        };
        let actions = [
            Action::Pass { seat: 0 },
            Action::Pass { seat: 1 },
            Action::Pass { seat: 0 },
        ];
        let text = export_game(
            &config,
            &actions,
            &["Ann", "Bo"],
            &WordList::new(["aa"]),
            |_| true,
        )
        .unwrap();
        assert!(text.contains("#player1 p1 Ann"));
        assert_eq!(text.lines().filter(|l| l.starts_with(">p")).count(), 3);
        assert!(text.contains("#end pass limit"), "{text}");
    }
}
