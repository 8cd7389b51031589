//! The endgame: once the bag is empty, the opponent's rack is what the player has not seen, so
//! the rest of the game is a game of perfect information. It is searched by negamax with
//! alpha-beta pruning and iterative deepening: first the likeliest few moves at each ply (every
//! move at the root), deeper until every line reaches the game's end, then wider, until every
//! legal move at every ply has been searched to the end (the answer is then exact) or the time
//! runs out (the last search completed answers, its unfinished lines judged by the tiles still
//! held).
//!
//! What is maximised is the spread: the mover's points from here on minus the opponent's,
//! leftovers included. A game ends when a player goes out (the other's tiles then count
//! against them, and for the player who went out where the rules say so), or when both pass in
//! turn: the position can then only repeat, and the game ends by passes with each player's tiles
//! counting against them.

// std's natively; the browser's clock in wasm, where std has none (a bot in a Web Worker).
use web_time::Instant;

use rules::{Board, HandTile, RuleSet};

use crate::{leaves::leave, Generator, Move};

/// The most plies searched: each places a tile, or is a pass that the other player's pass
/// would end the game on, so two full racks end within this.
const MAX_DEPTH: u8 = 32;

/// The most moves searched at each ply, in turn: each width is searched deeper and deeper until
/// its lines all end (then the next, wider) or the time runs out. Narrow first, the search sees
/// the likely lines to the end early.
const WIDTHS: [usize; 4] = [6, 12, 24, usize::MAX];

/// How many times a ply's width the root searches: its choice is the one that is played.
const ROOT_WIDTH: usize = 4;

/// What the search found for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    /// The move to make; `None` is a pass.
    pub best: Option<Move>,
    /// The spread it leads to from here, with best play by both: the mover's points to come
    /// minus the opponent's, leftovers included.
    pub spread: i32,
    /// The deepest search completed, in plies.
    pub depth: u8,
    /// Whether that search saw every line to the game's end: the spread is then exact.
    pub exact: bool,
    /// Positions searched.
    pub nodes: u64,
}

/// Whether the endgame can be searched under `rules`: not where powers and coins change what
/// a move is worth, nor with Alfapet's arrows and stops in the racks.
pub fn applies(rules: &RuleSet) -> bool {
    !rules.economy && rules.special_tiles == 0
}

/// What tiles `left` in a rack at the end cost their holder against the player who went out:
/// their face value, counted twice where the rules give it to the player who goes out.
pub fn stuck_cost(rules: &RuleSet, left: &[HandTile]) -> i32 {
    let leftover_factor = if rules.out_gains_leftovers { 2 } else { 1 };
    leftover_factor * face(rules, left)
}

/// The tiles' face value.
fn face(rules: &RuleSet, tiles: &[HandTile]) -> i32 {
    tiles.iter().map(|t| t.leftover_value(rules.tiles)).sum()
}

/// How long a search may take.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    /// When to answer (the first search, one ply deep, always completes).
    pub deadline: Instant,
    /// Called now and then while searching: a server's pause while requests are waiting.
    pub pause: Option<fn()>,
}

/// Searches the endgame of `mine` against `theirs` on `board`, the player with `mine` to move,
/// with `generator` (of `rules`), within `clock`. `None` when there is nothing to search: the
/// mover holds no tiles.
pub fn solve(
    generator: &mut Generator<'_>,
    rules: &RuleSet,
    board: &Board,
    mine: &[HandTile],
    theirs: &[HandTile],
    clock: Clock,
) -> Option<Solution> {
    if mine.is_empty() {
        return None;
    }
    let mut search = Search {
        rules,
        generator,
        buffers: Vec::new(),
        deadline: None,
        pause: clock.pause,
        width: WIDTHS[0],
        nodes: 0,
        horizon: false,
        narrowed: false,
        stopped: false,
    };
    let mut root = Vec::new();
    search.generator.generate(board, mine, &mut root);
    // The root's children, best first by the last search's values; before the first, the pass
    // (in every search, however narrow), then the moves by score.
    let mut children: Vec<(i32, Option<Move>)> = [(0, None)]
        .into_iter()
        .chain(
            order(rules, mine, &root, theirs)
                .into_iter()
                .map(|m| (0, Some(m))),
        )
        .collect();
    let mut found: Option<Solution> = None;
    'widths: for width in WIDTHS {
        search.width = width;
        // A wider search starts as deep as the narrower one went: it answers no worse.
        for depth in found.map_or(1, |f| f.depth)..=MAX_DEPTH {
            search.horizon = false;
            let mut alpha = -i32::MAX;
            let root_width = width.saturating_mul(ROOT_WIDTH);
            search.narrowed = children.len() > root_width;
            for child in children.iter_mut().take(root_width) {
                let value =
                    search.child(board, mine, theirs, child.1, depth, alpha, i32::MAX, false);
                if search.stopped {
                    break 'widths;
                }
                child.0 = value;
                alpha = alpha.max(value);
            }
            // Children after the best have only bounds, but ordering by them is still the best
            // guess for the next search.
            let searched = children.len().min(root_width);
            children[..searched].sort_by_key(|c| std::cmp::Reverse(c.0));
            let (spread, best) = children[0];
            let exact = !search.horizon && !search.narrowed;
            found = Some(Solution {
                best,
                spread,
                depth,
                exact,
                nodes: search.nodes,
            });
            // From now on the clock may stop a search: there is an answer.
            search.deadline = Some(clock.deadline);
            if exact {
                break 'widths;
            }
            if !search.horizon {
                // Every line ended within this depth: only a wider search can do better.
                continue 'widths;
            }
        }
    }
    found.map(|solution| Solution {
        nodes: search.nodes,
        ..solution
    })
}

/// One search's state: the generator, one move list per ply, and the clock.
struct Search<'s, 'a> {
    rules: &'s RuleSet,
    generator: &'s mut Generator<'a>,
    buffers: Vec<Vec<Move>>,
    /// When to stop; none for the first search, which always completes.
    deadline: Option<Instant>,
    pause: Option<fn()>,
    /// The most moves searched at a ply below the root.
    width: usize,
    nodes: u64,
    /// Whether some line of this search stopped before the game's end.
    horizon: bool,
    /// Whether some position of this search had more moves than it searched.
    narrowed: bool,
    /// Whether the time ran out during this search: its values are not to be trusted.
    stopped: bool,
}

impl Search<'_, '_> {
    /// The value for the mover of playing `m` (a pass for `None`) with `mine` against `theirs`,
    /// searched `depth` plies deep in all.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        board: &Board,
        mine: &[HandTile],
        theirs: &[HandTile],
        m: Option<Move>,
        depth: u8,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        let Some(m) = m else {
            if passed {
                // Both passed in turn: the game ends by passes.
                return face(self.rules, theirs) - face(self.rules, mine);
            }
            return -self.negamax(board, theirs, mine, depth - 1, -beta, -alpha, true);
        };
        let kept = leave(mine, &m);
        if kept.is_empty() {
            // Out: the game ends, the opponent's tiles stuck.
            return m.score + stuck_cost(self.rules, theirs);
        }
        let after = m.played_on(board);
        // The reply's window, moved by this move's points: it is judged from what it leaves.
        let (low, high) = (m.score.saturating_sub(beta), m.score.saturating_sub(alpha));
        m.score - self.negamax(&after, theirs, &kept, depth - 1, low, high, false)
    }

    /// The value of the position for the player to move with `mine`, `depth` plies deep.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        board: &Board,
        mine: &[HandTile],
        theirs: &[HandTile],
        depth: u8,
        mut alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if depth == 0 || self.stopped {
            // The search ends here, the game does not: judged as if it ended by passes.
            self.horizon = true;
            return face(self.rules, theirs) - face(self.rules, mine);
        }
        if self.nodes.is_multiple_of(16) {
            if let Some(pause) = self.pause {
                pause();
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = true;
                return 0;
            }
        }
        let ply = usize::from(MAX_DEPTH - depth);
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.generator.generate(board, mine, &mut moves);
        let mut ordered = order(self.rules, mine, &moves, theirs);
        self.buffers[ply] = moves;
        if ordered.len() > self.width {
            ordered.truncate(self.width);
            self.narrowed = true;
        }
        let mut best = -i32::MAX;
        for m in ordered.into_iter().map(Some).chain([None]) {
            let value = self.child(board, mine, theirs, m, depth, alpha, beta, passed);
            if self.stopped {
                return 0;
            }
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// `moves` best first as a guess: the ones that go out (ending the game on the opponent's
/// tiles), then by score.
fn order(rules: &RuleSet, mine: &[HandTile], moves: &[Move], theirs: &[HandTile]) -> Vec<Move> {
    let out_bonus = stuck_cost(rules, theirs);
    let mut ordered = moves.to_vec();
    ordered.sort_by_cached_key(|m| {
        let out = m.tile_count() == mine.len();
        std::cmp::Reverse(m.score + if out { out_bonus + 1000 } else { 0 })
    });
    ordered
}

/// The pre-endgame with one tile in the bag: which of `candidates` (moves of `mine`) leads to
/// the best endgame. `unseen` is the opponent's rack and the bag's tile together; each of them
/// in turn is the one in the bag (every deal counts the same), the candidate draws it, and the
/// endgame that follows, the opponent to move, is searched. Deals go round the candidates
/// while `clock` lasts, each search given an even share of what is left; the first deal is
/// always searched. `None` with no candidates.
pub fn pre_endgame(
    generator: &mut Generator<'_>,
    rules: &RuleSet,
    board: &Board,
    mine: &[HandTile],
    unseen: &[HandTile],
    candidates: &[Move],
    clock: Clock,
) -> Option<Move> {
    let mut totals = vec![0i64; candidates.len()];
    for (d, &drawn) in unseen.iter().enumerate() {
        let mut theirs = unseen.to_vec();
        theirs.remove(d);
        let mut values = Vec::with_capacity(candidates.len());
        for (c, m) in candidates.iter().enumerate() {
            let now = Instant::now();
            if d > 0 && now >= clock.deadline {
                break;
            }
            // An even share of the time left for the searches left.
            let left = (unseen.len() - d) * candidates.len() - c;
            let share = clock.deadline.saturating_duration_since(now) / left as u32;
            let after = m.played_on(board);
            let mut kept = leave(mine, m);
            kept.push(drawn);
            let reply = Clock {
                deadline: now + share,
                pause: clock.pause,
            };
            let theirs_value =
                solve(generator, rules, &after, &theirs, &kept, reply).map_or(0, |s| s.spread);
            values.push(i64::from(m.score - theirs_value));
        }
        if values.len() < candidates.len() {
            break;
        }
        for (total, value) in totals.iter_mut().zip(values) {
            *total += value;
        }
    }
    let best = (0..candidates.len()).max_by_key(|&c| totals[c])?;
    Some(candidates[best])
}
