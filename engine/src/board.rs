//! A position as a board to draw: rows of cards, coins, tokens, hats, dice and timers, each
//! with its text. `shifu replay` draws it in SVG; each game builds its board in its own folder
//! ([`crate::Present::board`]), from what the seat sees when a seat is given. The drawing knows
//! no rules and the board holds no hidden information a seat cannot see.

use serde::Serialize;

/// A position as drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Board {
    /// One line on the round, the phase and who is to move.
    pub status: String,
    /// The rows, top to bottom.
    pub rows: Vec<Row>,
}

/// One row of a board: a shared area (the market, the customers) or a seat's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The row's title.
    pub label: String,
    /// The seat the row belongs to, from 1 (none for a shared area).
    pub seat: Option<u8>,
    /// What lies in it, left to right.
    pub items: Vec<Item>,
}

/// One thing drawn on a board.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    /// A card face up: its name, its cost and a note (a type, points, a state).
    Card {
        /// The card's name.
        name: String,
        /// Its cost, in words (empty when it has none).
        cost: String,
        /// Anything else printed on it.
        note: String,
    },
    /// Cards face down: how many, and what they are.
    FaceDown {
        /// How many.
        count: u32,
        /// What they are (a hand, a deck).
        label: String,
    },
    /// Coins (or money).
    Coins {
        /// What they are.
        label: String,
        /// How many.
        value: i64,
    },
    /// A pile of tokens.
    Token {
        /// What they are.
        label: String,
        /// How many.
        value: i64,
    },
    /// Hats (a worker's hat, a character's hat).
    Hat {
        /// Whose or which hat.
        label: String,
        /// How many, or the points it shows.
        value: i64,
    },
    /// A die: its face (0: used or blank).
    Die {
        /// The face, 1 to 6 (0 when used).
        face: u8,
        /// Its colour or owner.
        label: String,
    },
    /// A timer: the time left of a total, in seconds.
    Timer {
        /// Which timer.
        label: String,
        /// Seconds left.
        left: f64,
        /// Seconds in all.
        total: f64,
    },
    /// A line of text.
    Text {
        /// The text.
        text: String,
    },
}

impl Board {
    /// An empty board with its status line.
    pub fn new(status: impl Into<String>) -> Board {
        Board {
            status: status.into(),
            rows: Vec::new(),
        }
    }

    /// Adds a row and returns it (`seat` 0-based; none for a shared area).
    pub fn row(&mut self, label: impl Into<String>, seat: Option<usize>) -> &mut Row {
        self.rows.push(Row {
            label: label.into(),
            seat: seat.map(|s| s as u8 + 1),
            items: Vec::new(),
        });
        self.rows.last_mut().expect("just pushed")
    }

    /// A board of text lines (the printed position), for a game without a board of its own.
    pub fn from_text(text: &str) -> Board {
        let mut lines = text.lines();
        let mut b = Board::new(lines.next().unwrap_or_default());
        let r = b.row("position", None);
        for l in lines {
            r.text(l.trim());
        }
        b
    }
}

impl Row {
    /// Adds a face-up card.
    pub fn card(
        &mut self,
        name: impl Into<String>,
        cost: impl Into<String>,
        note: impl Into<String>,
    ) -> &mut Row {
        self.items.push(Item::Card {
            name: name.into(),
            cost: cost.into(),
            note: note.into(),
        });
        self
    }

    /// Adds `count` face-down cards (nothing when `count` is 0).
    pub fn face_down(&mut self, count: u32, label: impl Into<String>) -> &mut Row {
        if count > 0 {
            self.items.push(Item::FaceDown {
                count,
                label: label.into(),
            });
        }
        self
    }

    /// Adds coins.
    pub fn coins(&mut self, label: impl Into<String>, value: impl Into<i64>) -> &mut Row {
        self.items.push(Item::Coins {
            label: label.into(),
            value: value.into(),
        });
        self
    }

    /// Adds a pile of tokens.
    pub fn token(&mut self, label: impl Into<String>, value: impl Into<i64>) -> &mut Row {
        self.items.push(Item::Token {
            label: label.into(),
            value: value.into(),
        });
        self
    }

    /// Adds hats.
    pub fn hat(&mut self, label: impl Into<String>, value: impl Into<i64>) -> &mut Row {
        self.items.push(Item::Hat {
            label: label.into(),
            value: value.into(),
        });
        self
    }

    /// Adds a die.
    pub fn die(&mut self, face: u8, label: impl Into<String>) -> &mut Row {
        self.items.push(Item::Die {
            face,
            label: label.into(),
        });
        self
    }

    /// Adds a timer.
    pub fn timer(&mut self, label: impl Into<String>, left: f64, total: f64) -> &mut Row {
        self.items.push(Item::Timer {
            label: label.into(),
            left,
            total,
        });
        self
    }

    /// Adds a line of text.
    pub fn text(&mut self, text: impl Into<String>) -> &mut Row {
        self.items.push(Item::Text { text: text.into() });
        self
    }
}
