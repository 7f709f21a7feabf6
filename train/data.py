"""Reading the training data that `dvonn tune-net data` writes.

A data file is a 16-byte header (b"DVONNDAT", the format version and the
record size, both u32 little-endian) followed by fixed-size records; the
layout of a record is documented on `dvonn_ai::eval::network::data::Record`.
This module turns records into the network's inputs: for each side, the
indices of the inputs that the stacks of the board switch on (the same
encoding as `dvonn_ai::eval::network::inputs`), and into training targets.
"""

import numpy as np

MAGIC = b"DVONNDAT"
VERSION = 1
FEATURES = 11
RECORD = np.dtype(
    [
        ("cells", np.uint8, 49),
        ("flags", np.uint8),
        ("ply", "<u2"),
        ("game", "<u4"),
        ("score", "<i2"),
        ("depth", np.uint8),
        ("proven", np.uint8),
        ("margin", np.int8),
        ("features", "<i2", FEATURES),
        ("pad", np.uint8),
    ]
)
assert RECORD.itemsize == 84

# The input encoding of `dvonn_ai::eval::network::inputs`.
HEIGHT_BUCKETS = 9
KINDS = 1 + 2 * 2 * HEIGHT_BUCKETS
INPUTS = 49 * KINDS
# The index of "no input" in the padded index arrays (an all-zero row).
PADDING = INPUTS


def height_bucket(height):
    """Heights 1-6 alone, then 7-8, 9-10 and 11 or more."""
    height = np.asarray(height, dtype=np.int64)
    return np.select([height <= 6, height <= 8, height <= 10], [height - 1, 6, 7], 8)


def read(path):
    """The records of one data file, as a numpy structured array."""
    with open(path, "rb") as file:
        header = file.read(16)
        if len(header) != 16 or header[:8] != MAGIC:
            raise ValueError(f"{path}: not a dvonn training-data file")
        version, size = np.frombuffer(header[8:], dtype="<u4", count=2)
        if version != VERSION or size != RECORD.itemsize:
            raise ValueError(f"{path}: data format {version} with {size}-byte records; this trainer reads format {VERSION}")
        return np.fromfile(file, dtype=RECORD)


# Cells in canonical order (A1 = 0 .. K5 = 48), row by row: (x, y).
CELLS = [(x, y) for y in range(5) for x in range(11) if y - 2 <= x <= y + 8]
INDEX = {cell: i for i, cell in enumerate(CELLS)}


def _symmetry(s, x, y):
    """(x, y) under symmetry s: 0 identity, 1 half turn, 2 mirror of rows, 3 both."""
    if s == 0:
        return x, y
    if s == 1:
        return 10 - x, 4 - y
    if s == 2:
        return x - y + 2, 4 - y
    return 10 - (x - y + 2), y


# SYMMETRIES[s][i]: the cell that cell i goes to under symmetry s.
SYMMETRIES = np.array([[INDEX[_symmetry(s, x, y)] for (x, y) in CELLS] for s in range(4)], dtype=np.int64)


def stack_kinds(cells, black_view):
    """The kind of each cell's stack seen from a side (White's when
    `black_view` is false): -1 for an empty cell, 0 for a lone DVONN piece,
    then the side's own stacks and the opponent's, each with and without a
    DVONN piece, by height bucket. `cells` is (n, 49) stack bytes,
    `black_view` (n,) booleans."""
    cells = cells.astype(np.int64)
    height = cells & 0x3F
    white_top = (cells & 0x40) != 0
    dvonn = (cells & 0x80) != 0
    theirs = white_top == black_view[:, None]
    kind = 1 + (theirs * 2 + dvonn) * HEIGHT_BUCKETS + height_bucket(np.maximum(height, 1))
    kind = np.where(dvonn & (height == 1), 0, kind)
    return np.where(height == 0, -1, kind)


def input_indices(cells, black_to_move, symmetry=None):
    """The active inputs of each position for the side to move and for its
    opponent: two (n, 49) arrays of input indices, `PADDING` where a cell
    is empty. With `symmetry` ((n,) numbers 0-3), each board is first
    mapped by that symmetry of the board."""
    n = len(cells)
    if symmetry is not None:
        mapped = np.empty_like(cells)
        rows = np.arange(n)[:, None]
        mapped[rows, SYMMETRIES[symmetry]] = cells
        cells = mapped
    base = np.arange(49, dtype=np.int64)[None, :] * KINDS
    out = []
    for black_view in (black_to_move, ~black_to_move):
        kind = stack_kinds(cells, black_view)
        out.append(np.where(kind < 0, PADDING, base + kind))
    return out


def occupied(cells):
    return (cells != 0).sum(axis=1)


def placed(cells):
    """Pieces on the board (in the placement phase: placements made)."""
    return (cells & 0x3F).astype(np.int64).sum(axis=1)
