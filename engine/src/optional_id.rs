//! Optional one-byte ids: a card, tile or seat index, or "none", in one byte of plain data.
//!
//! The games' states hold many slots that may be empty: a market slot, a table seat, a player's
//! chosen card. Each game declares a type per kind of id with [`optional_id!`](crate::optional_id)
//! so that "no card" cannot be taken for card 255 and an id cannot be used as an index without
//! asking whether it is there ([`get`](crate::tofu_shifu::CardId::get) and `index` give an
//! `Option`).
//!
//! The layout is the byte itself with `u8::MAX` for none, so a state keeps its size, its JSON
//! (a plain number, 255 for none) and the bit tricks that read a row of empty slots as all ones;
//! none sorts after every id.

/// Declares an optional one-byte id type (see the [module](crate::optional_id) docs).
#[macro_export]
macro_rules! optional_id {
    ($(#[$m:meta])* $vis:vis struct $name:ident;) => {
        $(#[$m])*
        #[derive(
            Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
        )]
        #[repr(transparent)]
        #[serde(transparent)]
        $vis struct $name(u8);

        impl $name {
            /// None: an empty slot (stored as 255, after every id).
            pub const NONE: $name = $name(u8::MAX);

            /// The id `i` (below 255).
            #[inline]
            pub const fn new(i: u8) -> $name {
                debug_assert!(i != u8::MAX, "255 is kept for none");
                $name(i)
            }

            /// The id with index `i` (below 255).
            #[inline]
            pub fn from_index(i: usize) -> $name {
                debug_assert!(i < usize::from(u8::MAX), "255 is kept for none");
                $name(i as u8)
            }

            /// The id, or `None` for an empty slot.
            #[inline]
            pub const fn get(self) -> Option<u8> {
                if self.0 == u8::MAX {
                    None
                } else {
                    Some(self.0)
                }
            }

            /// The id as an index, or `None` for an empty slot.
            #[inline]
            pub const fn index(self) -> Option<usize> {
                if self.0 == u8::MAX {
                    None
                } else {
                    Some(self.0 as usize)
                }
            }

            /// The id stored as byte `b`, none for 255: for decoding raw bytes.
            #[inline]
            pub const fn from_byte(b: u8) -> $name {
                $name(b)
            }

            /// The stored byte, 255 for none: for code that reads a row of slots as one word.
            #[inline]
            pub const fn to_byte(self) -> u8 {
                self.0
            }

            /// Whether the slot is empty.
            #[inline]
            pub const fn is_none(self) -> bool {
                self.0 == u8::MAX
            }

            /// Whether the slot holds an id.
            #[inline]
            pub const fn is_some(self) -> bool {
                self.0 != u8::MAX
            }
        }

        impl From<Option<u8>> for $name {
            fn from(x: Option<u8>) -> $name {
                x.map_or($name::NONE, $name::new)
            }
        }

        impl From<$name> for Option<u8> {
            fn from(x: $name) -> Option<u8> {
                x.get()
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.get() {
                    Some(i) => write!(f, "{}({i})", stringify!($name)),
                    None => write!(f, "{}::NONE", stringify!($name)),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::optional_id! {
        /// A test id.
        struct Id;
    }

    #[test]
    fn none_is_not_an_index_and_keeps_one_byte() {
        assert_eq!(std::mem::size_of::<Id>(), 1);
        assert_eq!(Id::NONE.index(), None);
        assert_eq!(Id::new(0).index(), Some(0));
        assert_eq!(Id::from_index(254).get(), Some(254));
        assert!(Id::new(254) < Id::NONE, "none sorts last");
        assert_eq!(Id::from(None), Id::NONE);
        assert!(Id::NONE.is_none() && Id::new(0).is_some());
        assert_eq!(Id::from_byte(255), Id::NONE);
        assert_eq!(Id::from_byte(9).to_byte(), 9);
        assert_eq!(Option::<u8>::from(Id::new(7)), Some(7));
        assert_eq!(format!("{:?} {:?}", Id::new(3), Id::NONE), "Id(3) Id::NONE");
    }

    #[test]
    fn json_is_the_plain_byte() {
        assert_eq!(
            serde_json::to_string(&[Id::new(3), Id::NONE]).unwrap(),
            "[3,255]"
        );
        let back: [Id; 2] = serde_json::from_str("[3,255]").unwrap();
        assert_eq!(back, [Id::new(3), Id::NONE]);
    }
}
