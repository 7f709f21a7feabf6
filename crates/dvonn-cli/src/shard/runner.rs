//! Playing a shard's games on several threads.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{Context, Result};

/// What to do after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on.
    Continue,
    /// Start no new game (those under way still finish).
    Stop,
}

/// Plays `games` (numbers from 0, started in this order) on up to
/// `threads` threads. Each thread makes its player with `player()`: a
/// function from a game's number to the game (it may keep what it reuses
/// from game to game, like an engine's table). `done(game, played)` gets
/// each game on the calling thread as it finishes, in the order they
/// finish. Once `done` says [`Flow::Stop`], or a game or `done` fails, no
/// new game starts; the games under way finish and still go to `done`.
/// Returns the first error, with its game's number.
pub(crate) fn play_games<T, P>(
    games: &[usize],
    threads: usize,
    player: impl Fn() -> P + Sync,
    mut done: impl FnMut(usize, T) -> Result<Flow>,
) -> Result<()>
where
    T: Send,
    P: FnMut(usize) -> Result<T>,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut error: Option<anyhow::Error> = None;
    let (sender, receiver) = mpsc::channel::<(usize, Result<T>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(games.len()) {
            let sender = sender.clone();
            let (next, stop, player) = (&next, &stop, &player);
            scope.spawn(move || {
                let mut play = player();
                while !stop.load(Ordering::Relaxed) {
                    let Some(&game) = games.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    if sender.send((game, play(game))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (game, played) in receiver {
            match played.and_then(|played| done(game, played)).with_context(|| format!("game {}", game + 1)) {
                Ok(Flow::Continue) => {}
                Ok(Flow::Stop) => stop.store(true, Ordering::Relaxed),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                }
            }
        }
    });
    error.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_played_once_and_a_stop_starts_no_more() {
        let games: Vec<usize> = (0..40).map(|n| n * 3).collect();
        let mut seen = Vec::new();
        play_games(
            &games,
            4,
            || |game: usize| Ok(game * 2),
            |game, double| {
                assert_eq!(double, game * 2);
                seen.push(game);
                Ok(Flow::Continue)
            },
        )
        .unwrap();
        seen.sort_unstable();
        assert_eq!(seen, games);

        // Games that take a while, so that a stop reaches the threads before
        // their next game.
        let slow = |game: usize| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            Ok(game)
        };
        let mut count = 0;
        play_games(
            &games,
            2,
            || slow,
            |_, _| {
                count += 1;
                Ok(if count == 5 { Flow::Stop } else { Flow::Continue })
            },
        )
        .unwrap();
        // Each thread may have a game finished but not yet handed over,
        // and one under way, when the stop comes: they still count, and
        // no other game starts.
        assert!((5..=9).contains(&count), "{count}");
    }

    #[test]
    fn the_first_error_comes_back_with_its_game() {
        let games: Vec<usize> = (0..10).collect();
        let mut finished = 0;
        let error = play_games(
            &games,
            1,
            || {
                |game: usize| {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    if game == 3 { anyhow::bail!("broken") } else { Ok(game) }
                }
            },
            |_, _| {
                finished += 1;
                Ok(Flow::Continue)
            },
        )
        .unwrap_err();
        assert_eq!(format!("{error:#}"), "game 4: broken");
        assert!((3..=4).contains(&finished), "no game starts after the failure's: {finished}");
    }
}
