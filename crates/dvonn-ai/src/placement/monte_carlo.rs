//! Monte-Carlo tree search for the placement phase: UCT with RAVE over
//! placements, fast playouts of the whole rest of the game.

use dvonn_core::{Bitboard, Color, Move, MoveList, Phase, Position};
use rand::Rng;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Exploration constant of UCT.
const EXPLORATION: f64 = 0.35;
/// RAVE equivalence: after about this many visits a node trusts its own
/// results as much as the all-moves-as-first statistics.
const RAVE_EQUIVALENCE: f64 = 400.0;
/// Visits before a node's children are created.
const EXPAND_AFTER: u32 = 2;
/// Margin (pieces) at which a playout counts as a full win.
const DECISIVE_MARGIN: f64 = 8.0;
/// Share of movement-phase playout moves that capture when a capture exists.
const CAPTURE_BIAS: f64 = 0.75;

struct Node {
    /// The move that led here (`None` at the root).
    mv: Option<Move>,
    /// The player who made `mv`: results are stored from his view.
    mover: Color,
    first_child: u32,
    child_count: u32,
    visits: u32,
    value: f64,
    amaf_visits: u32,
    amaf_value: f64,
    margin: f64,
}

impl Node {
    fn new(mv: Option<Move>, mover: Color) -> Node {
        Node {
            mv,
            mover,
            first_child: 0,
            child_count: 0,
            visits: 0,
            value: 0.0,
            amaf_visits: 0,
            amaf_value: 0.0,
            margin: 0.0,
        }
    }
}

/// The statistics of one root move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RootStat {
    pub(crate) mv: Move,
    pub(crate) visits: u32,
    pub(crate) value: f64,
    /// Sum of final margins (pieces) for the player to move at the root.
    pub(crate) margin: f64,
}

/// One search tree.
pub(crate) struct MonteCarlo {
    root: Position,
    nodes: Vec<Node>,
    rng: ChaCha8Rng,
    /// The deepest node created, in plies below the root.
    pub(crate) depth: u32,
}

/// The value of a final margin (pieces, for some player) in `[0, 1]`.
fn playout_value(margin: i32) -> f64 {
    0.5 + 0.5 * (f64::from(margin) / DECISIVE_MARGIN).clamp(-1.0, 1.0)
}

/// The final margin of a finished game for `color`.
fn margin_for(position: &Position, color: Color) -> i32 {
    position.pieces(color) as i32 - position.pieces(color.opponent()) as i32
}

/// A random empty cell.
fn random_cell<R: Rng + ?Sized>(empty: Bitboard, rng: &mut R) -> Option<dvonn_core::Cell> {
    if empty.is_empty() {
        return None;
    }
    empty.iter().nth(rng.random_range(0..empty.len() as usize))
}

/// Plays the rest of the game from `position` with a fast policy: random
/// placements, then random movements that prefer landing on enemy stacks.
/// Records in `placed_by` (by canonical cell index) who placed each piece.
pub(crate) fn playout<R: Rng + ?Sized>(
    mut position: Position,
    rng: &mut R,
    placed_by: &mut [Option<Color>; 49],
) -> Position {
    let mut moves = MoveList::new();
    loop {
        let mv = match position.phase() {
            Phase::Placement => {
                let Some(cell) = random_cell(!position.occupied(), rng) else { break };
                placed_by[cell.index()] = Some(position.side_to_move());
                Move::Place(cell)
            }
            Phase::Movement => {
                moves.clear();
                position.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let enemy = position.owned_by(position.side_to_move().opponent());
                let captures = moves.iter().filter(|m| m.to().is_some_and(|to| enemy.contains(to))).count();
                if captures > 0 && rng.random_bool(CAPTURE_BIAS) {
                    *moves
                        .iter()
                        .filter(|m| m.to().is_some_and(|to| enemy.contains(to)))
                        .nth(rng.random_range(0..captures))
                        .expect("counted")
                } else {
                    *moves.choose(rng).expect("not empty")
                }
            }
        };
        position.play_unchecked(mv);
    }
    position
}

impl MonteCarlo {
    /// A tree for `root` (a placement position), with its own random stream.
    pub(crate) fn new(root: &Position, seed: u64) -> MonteCarlo {
        let mover = root.side_to_move().opponent();
        MonteCarlo { root: *root, nodes: vec![Node::new(None, mover)], rng: ChaCha8Rng::seed_from_u64(seed), depth: 0 }
    }

    /// Runs playouts until `keep_going(playouts so far)` says no; checks it
    /// every `batch` playouts. Returns the number of playouts run.
    pub(crate) fn run(&mut self, batch: u64, mut keep_going: impl FnMut(u64) -> bool) -> u64 {
        let mut done = 0;
        while keep_going(done) {
            for _ in 0..batch {
                self.iterate();
            }
            done += batch;
        }
        done
    }

    /// The statistics of every root move (empty before the first playout).
    pub(crate) fn root_stats(&self) -> Vec<RootStat> {
        let root = &self.nodes[0];
        self.children(root)
            .map(|i| {
                let child = &self.nodes[i];
                RootStat {
                    mv: child.mv.expect("children have moves"),
                    visits: child.visits,
                    value: child.value,
                    margin: child.margin,
                }
            })
            .collect()
    }

    /// The most visited line from the root.
    pub(crate) fn principal_variation(&self) -> Vec<Move> {
        let mut line = Vec::new();
        let mut node = 0;
        while let Some(best) = self.children(&self.nodes[node]).max_by_key(|&i| self.nodes[i].visits) {
            if self.nodes[best].visits == 0 {
                break;
            }
            line.extend(self.nodes[best].mv);
            node = best;
        }
        line
    }

    fn children(&self, node: &Node) -> std::ops::Range<usize> {
        node.first_child as usize..(node.first_child + node.child_count) as usize
    }

    fn expand(&mut self, node: usize, position: &Position) {
        let mover = position.side_to_move();
        let first = self.nodes.len() as u32;
        let moves = position.legal_moves();
        self.nodes.extend(moves.iter().map(|&mv| Node::new(Some(mv), mover)));
        self.nodes[node].first_child = first;
        self.nodes[node].child_count = moves.len() as u32;
    }

    fn select_child(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let log_visits = f64::from(parent.visits.max(1)).ln();
        let beta_rave = (RAVE_EQUIVALENCE / (3.0 * f64::from(parent.visits) + RAVE_EQUIVALENCE)).sqrt();
        let mut best = (f64::NEG_INFINITY, self.children(parent).start);
        for i in self.children(parent) {
            let child = &self.nodes[i];
            let own = if child.visits > 0 { child.value / f64::from(child.visits) } else { 0.5 };
            let amaf = if child.amaf_visits > 0 { child.amaf_value / f64::from(child.amaf_visits) } else { own };
            let mixed = if child.visits > 0 { (1.0 - beta_rave) * own + beta_rave * amaf } else { amaf + 0.1 };
            let explore = EXPLORATION * (log_visits / (f64::from(child.visits) + 1.0)).sqrt();
            let value = mixed + explore;
            if value > best.0 {
                best = (value, i);
            }
        }
        best.1
    }

    /// One selection-expansion-playout-update cycle.
    fn iterate(&mut self) {
        let mut path = vec![0usize];
        let mut position = self.root;
        let mut placed_by = [None; 49];
        // Selection: down the tree while it is expanded and still in placement.
        loop {
            let node = *path.last().expect("root");
            if position.phase() != Phase::Placement || position.is_game_over() {
                break;
            }
            if self.nodes[node].child_count == 0 {
                if self.nodes[node].visits < EXPAND_AFTER {
                    break;
                }
                self.expand(node, &position);
                if self.nodes[node].child_count == 0 {
                    break;
                }
            }
            let child = self.select_child(node);
            let mv = self.nodes[child].mv.expect("children have moves");
            if let Move::Place(cell) = mv {
                placed_by[cell.index()] = Some(position.side_to_move());
            }
            position.play_unchecked(mv);
            path.push(child);
        }
        self.depth = self.depth.max(path.len() as u32 - 1);
        let end = playout(position, &mut self.rng, &mut placed_by);
        let white_margin = margin_for(&end, Color::White);

        for &node in &path {
            let mover = self.nodes[node].mover;
            let margin = if mover == Color::White { white_margin } else { -white_margin };
            let n = &mut self.nodes[node];
            n.visits += 1;
            n.value += playout_value(margin);
            n.margin += f64::from(margin);
            // All moves as first: credit every child move that its player
            // made anywhere later in this game.
            let (first, count) = (n.first_child as usize, n.child_count as usize);
            for child in &mut self.nodes[first..first + count] {
                let Some(Move::Place(cell)) = child.mv else { continue };
                if placed_by[cell.index()] == Some(child.mover) {
                    let margin = if child.mover == Color::White { white_margin } else { -white_margin };
                    child.amaf_visits += 1;
                    child.amaf_value += playout_value(margin);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_finish_games_and_record_every_placement() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..50 {
            let mut placed_by = [None; 49];
            let end = playout(Position::new(), &mut rng, &mut placed_by);
            assert!(end.is_game_over());
            assert!(placed_by.iter().all(Option::is_some));
        }
    }

    #[test]
    fn the_search_spends_its_playouts_on_legal_moves() {
        let mut position = Position::new();
        for cell in ["E3", "F3", "G3", "D3"] {
            position.play(Move::Place(cell.parse().unwrap())).unwrap();
        }
        let mut search = MonteCarlo::new(&position, 7);
        let done = search.run(100, |n| n < 2000);
        assert_eq!(done, 2000);
        let stats = search.root_stats();
        assert_eq!(stats.len(), 45);
        assert_eq!(stats.iter().map(|s| u64::from(s.visits)).sum::<u64>(), 2000 - 1 - u64::from(EXPAND_AFTER) + 1);
        assert!(stats.iter().all(|s| position.is_legal(s.mv)));
        assert!(!search.principal_variation().is_empty());
    }
}
