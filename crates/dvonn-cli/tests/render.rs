//! `dvonn render`, driven through the real binary: the SVG is parsed back
//! with an XML parser and checked structurally; `--format txt` is the
//! diagram.

mod common;

use std::fs;

use common::{LITTLE_GOLEM_GAME, arg, dvonn, dvonn_with_input, failure, file_names, games, success};
use dvonn_core::Position;
use dvonn_notation::GameRecord;
use dvonn_notation::diagram::{DiagramOptions, diagram};

/// The elements of `svg` whose `class` attribute starts with the word `class`.
fn count(svg: &roxmltree::Document, tag: &str, class: &str) -> usize {
    svg.descendants()
        .filter(|node| node.has_tag_name(tag))
        .filter(|node| node.attribute("class").is_some_and(|c| c.split(' ').next() == Some(class)))
        .count()
}

/// The text of the caption lines.
fn caption(svg: &roxmltree::Document) -> Vec<String> {
    svg.descendants()
        .filter(|node| node.attribute("class") == Some("caption"))
        .map(|node| node.text().unwrap_or("").to_string())
        .collect()
}

/// Checks the parts every picture has, and that `svg` draws `position`.
fn check_board(svg: &roxmltree::Document, position: &Position) {
    let root = svg.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    assert!(root.attribute("viewBox").is_some());
    assert_eq!(count(svg, "polygon", "cell"), 49);
    assert_eq!(count(svg, "text", "coord"), 49);
    let stacks: Vec<_> = position.occupied().iter().filter_map(|cell| position.stack_at(cell)).collect();
    assert_eq!(count(svg, "circle", "stack"), stacks.len());
    assert_eq!(count(svg, "text", "height"), stacks.iter().filter(|s| s.height() >= 2).count());
    let rings = stacks.iter().filter(|s| s.has_dvonn() && s.owner().is_some()).count();
    assert_eq!(count(svg, "circle", "dvonn-ring"), rings);
    // Every height label is a number, and every disc sits on a real cell.
    for node in svg.descendants().filter(|n| n.attribute("class") == Some("height")) {
        assert!(node.text().unwrap().parse::<u8>().unwrap() >= 2);
    }
    for node in svg.descendants().filter(|n| n.has_tag_name("circle") && n.attribute("data-cell").is_some()) {
        let cell = node.attribute("data-cell").unwrap().parse().unwrap();
        let live = node.attribute("class").unwrap().starts_with("stack ");
        assert_eq!(position.stack_at(cell).is_some(), live, "{cell}");
    }
    assert_eq!(caption(svg)[0], dvonn_notation::diagram::status(position));
}

#[test]
fn a_record_is_drawn_with_its_last_move_and_removals() {
    let dir = tempfile::tempdir().unwrap();
    let lg = dir.path().join("game.lg");
    fs::write(&lg, LITTLE_GOLEM_GAME).unwrap();
    let out = dir.path().join("board.svg");
    success(&dvonn(["render", arg(&lg), "--ply", "65", "-o", arg(&out)]));
    let text = fs::read_to_string(&out).unwrap();
    let svg = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let record = GameRecord::parse(&success(&dvonn(["convert", arg(&lg)]))).unwrap();
    let replay = record.replay().unwrap();
    check_board(&svg, &replay.positions()[65]);
    assert_eq!(count(&svg, "line", "arrow"), 1);
    assert_eq!(count(&svg, "circle", "placed"), 0);
    // I3I5 cut six stacks off: they are drawn ghosted.
    assert_eq!(replay.plies()[64].removed.len(), 6);
    assert_eq!(count(&svg, "circle", "ghost"), 6);
    let group = svg.descendants().find(|n| n.attribute("class") == Some("removed")).expect("a group of removed stacks");
    assert!(group.attribute("opacity").unwrap().parse::<f64>().unwrap() < 1.0);
    let lines = caption(&svg);
    assert_eq!(lines[1], "White: CleverHunk steven cullum \u{b7} Black: Xander (xandern .BSW)");
    assert_eq!(lines[2], "after ply 65 (move 33): I3I5, removing H1 I1 I2 J2 K3 K4");
    assert_eq!(file_names(dir.path()), ["board.svg", "game.lg"]);
}

#[test]
fn a_placement_is_ringed_and_the_end_of_a_game_is_the_default() {
    let game = &games()[4];
    let record = game.record(5);
    let text = success(&dvonn_with_input(["render", "-", "--ply", "5"], record.as_bytes()));
    let svg = roxmltree::Document::parse(&text).unwrap();
    check_board(&svg, &game.position_after(5));
    assert_eq!(count(&svg, "line", "arrow"), 0);
    assert_eq!(count(&svg, "circle", "placed"), 1);
    let text = success(&dvonn_with_input(["render", "-"], record.as_bytes()));
    let svg = roxmltree::Document::parse(&text).unwrap();
    let end = game.position_after(game.moves.len());
    check_board(&svg, &end);
    assert!(caption(&svg)[0].starts_with(&format!("game over, score {}", game.score)));
    assert_eq!(count(&svg, "line", "arrow"), 1);
}

#[test]
fn a_position_string_is_drawn_without_a_last_move() {
    let text = "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m";
    let svg_text = success(&dvonn(["render", text]));
    let svg = roxmltree::Document::parse(&svg_text).unwrap();
    let position: Position = text.parse().unwrap();
    check_board(&svg, &position);
    assert_eq!(count(&svg, "line", "arrow"), 0);
    assert_eq!(count(&svg, "circle", "ghost"), 0);
    assert_eq!(svg.descendants().filter(|n| n.attribute("class") == Some("stack dvonn")).count(), 2);
    // A position string on standard input, as the diagram.
    let from_stdin = success(&dvonn_with_input(["render", "-", "--format", "txt"], format!("{text}\n").as_bytes()));
    assert_eq!(from_stdin, diagram(&position, &DiagramOptions::default()));
    // The empty board too.
    let empty = success(&dvonn(["render", "........./........../.........../........../......... w p"]));
    let svg = roxmltree::Document::parse(&empty).unwrap();
    check_board(&svg, &Position::new());
    failure(&dvonn(["render", text, "--ply", "3"]), "--ply needs a game record, not a position string");
    failure(
        &dvonn(["render", "BBB.W2WWDB/BWBBWBWBB2 w m"]),
        "\"BBB.W2WWDB/BWBBWBWBB2 w m\" is not a position string (nor a file)",
    );
}

#[test]
fn text_in_the_picture_is_escaped() {
    let record = "[White \"<Ann> & \\\"Bob's\\\" friend\"]\n\n1. E3 D3";
    let text = success(&dvonn_with_input(["render", "-"], record.as_bytes()));
    let svg = roxmltree::Document::parse(&text).expect("well-formed despite the tag");
    assert_eq!(caption(&svg)[1], "White: <Ann> & \"Bob's\" friend");
}

#[test]
fn txt_is_the_diagram() {
    // The real Little Golem game: ply 65 (I3I5) cuts six stacks off.
    let replay = dvonn_notation::read_any(LITTLE_GOLEM_GAME, None).unwrap().replay().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game.txt");
    let out = dir.path().join("board.txt");
    fs::write(&input, LITTLE_GOLEM_GAME).unwrap();
    success(&dvonn(["render", arg(&input), "--ply", "65", "--format", "txt", "-o", arg(&out)]));
    let mut before = replay.positions()[64];
    let removed = before.play(replay.plies()[64].mv).unwrap();
    let options = DiagramOptions::default().with_last_move(replay.plies()[64].mv).with_removed(removed);
    let text = fs::read_to_string(&out).unwrap();
    assert_eq!(text, diagram(&before, &options));
    assert!(text.contains("last move: I3I5\nremoved: H1 I1 I2 J2 K3 K4 (6 stacks, x on the board)\n"), "{text}");
    assert!(!text.contains('\x1b'), "no colours in files");
    // To standard output, and never over an existing file without --force.
    let printed = success(&dvonn(["render", arg(&input), "--ply", "65", "--format", "txt"]));
    assert_eq!(printed, text);
    failure(&dvonn(["render", arg(&input), "-o", arg(&out)]), "exists; use --force to overwrite it");
    assert_eq!(fs::read_to_string(&out).unwrap(), text);
    success(&dvonn(["render", arg(&input), "-o", arg(&out), "--force"]));
    assert!(fs::read_to_string(&out).unwrap().starts_with("<svg"));
    assert_eq!(file_names(dir.path()), ["board.txt", "game.txt"]);
}
