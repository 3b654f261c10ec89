//! Bitsets (`u64`, `u128`) in state JSON, written as arrays of their set bits' indices in
//! ascending order (`[3, 17, 64]`), so that every JSON number is at most 2^53 and JavaScript
//! reads a state exactly (a set written as one number, such as a deck of 70 cards, is above it).
//!
//! Reading accepts that form and the earlier one, a single number, up to 2^64 - 1 (the JSON
//! reader cannot tell a larger number exactly; such a set must be given as an array). Use with
//! `#[serde(with = "crate::bitset_json")]`, or `crate::bitset_json::array` for an array of sets.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// An unsigned integer used as a set of bit indices.
pub trait Bits: Copy + Default {
    /// Bits in the word.
    const WIDTH: u32;
    /// Whether bit `i` is set.
    fn has(self, i: u32) -> bool;
    /// The word with bit `i` (below `WIDTH`) set.
    fn with(self, i: u32) -> Self;
    /// The word from a number written in the earlier form.
    fn from_u64(x: u64) -> Self;
}

impl Bits for u64 {
    const WIDTH: u32 = 64;
    fn has(self, i: u32) -> bool {
        self >> i & 1 == 1
    }
    fn with(self, i: u32) -> Self {
        self | 1 << i
    }
    fn from_u64(x: u64) -> Self {
        x
    }
}

impl Bits for u128 {
    const WIDTH: u32 = 128;
    fn has(self, i: u32) -> bool {
        self >> i & 1 == 1
    }
    fn with(self, i: u32) -> Self {
        self | 1 << i
    }
    fn from_u64(x: u64) -> Self {
        u128::from(x)
    }
}

/// Writes `x` as the array of its set bits' indices.
pub fn serialize<T: Bits, S: Serializer>(x: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq((0..T::WIDTH).filter(|&i| x.has(i)))
}

/// Reads a set written as an array of bit indices (each below the word's width, none twice) or
/// as one number up to 2^64 - 1.
pub fn deserialize<'de, T: Bits, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_any(SetVisitor(PhantomData))
}

struct SetVisitor<T>(PhantomData<T>);

impl<'de, T: Bits> Visitor<'de> for SetVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "a set as an array of bit indices from 0 to {}",
            T::WIDTH - 1
        )
    }

    fn visit_u64<E: de::Error>(self, x: u64) -> Result<T, E> {
        Ok(T::from_u64(x))
    }

    fn visit_i64<E: de::Error>(self, x: i64) -> Result<T, E> {
        u64::try_from(x)
            .map(T::from_u64)
            .map_err(|_| E::custom(format!("{x}: a set is not negative")))
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<T, E> {
        Err(E::custom(format!(
            "{x} is not a set: write it as an array of bit indices (a number above 2^64 - 1 \
             cannot be read exactly)"
        )))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut set = T::default();
        while let Some(i) = seq.next_element::<u64>()? {
            if i >= u64::from(T::WIDTH) {
                return Err(de::Error::custom(format!(
                    "bit {i} is past a {}-bit set (indices 0 to {})",
                    T::WIDTH,
                    T::WIDTH - 1
                )));
            }
            if set.has(i as u32) {
                return Err(de::Error::custom(format!("bit {i} is listed twice")));
            }
            set = set.with(i as u32);
        }
        Ok(set)
    }
}

/// An array of sets (one per player), each written as [`serialize`] writes one.
pub mod array {
    use super::*;

    /// One set's serialization, for the array's elements.
    struct One<T>(T);

    impl<T: Bits> serde::Serialize for One<T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::serialize(&self.0, s)
        }
    }

    impl<'de, T: Bits> serde::Deserialize<'de> for One<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            super::deserialize(d).map(One)
        }
    }

    /// Writes each set of `x` as an array of bit indices.
    pub fn serialize<T: Bits, S: Serializer, const N: usize>(
        x: &[T; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(N)?;
        for &v in x {
            t.serialize_element(&One(v))?;
        }
        t.end()
    }

    /// Reads exactly `N` sets.
    pub fn deserialize<'de, T: Bits, D: Deserializer<'de>, const N: usize>(
        d: D,
    ) -> Result<[T; N], D::Error> {
        struct ArrayVisitor<T, const N: usize>(PhantomData<T>);
        impl<'de, T: Bits, const N: usize> Visitor<'de> for ArrayVisitor<T, N> {
            type Value = [T; N];
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "an array of {N} sets")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
                let mut out = [T::default(); N];
                for (i, x) in out.iter_mut().enumerate() {
                    *x = seq
                        .next_element::<One<T>>()?
                        .ok_or_else(|| de::Error::invalid_length(i, &self))?
                        .0;
                }
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(N + 1, &self));
                }
                Ok(out)
            }
        }
        d.deserialize_tuple(N, ArrayVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct S {
        #[serde(with = "super")]
        big: u128,
        #[serde(with = "super")]
        small: u64,
        #[serde(with = "super::array")]
        many: [u64; 2],
    }

    #[test]
    fn sets_are_written_as_bit_indices_and_read_in_both_forms() {
        let s = S {
            big: 1 << 3 | 1 << 64 | 1 << 127,
            small: 1 << 60,
            many: [0, 5],
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"big":[3,64,127],"small":[60],"many":[[],[0,2]]}"#);
        assert_eq!(serde_json::from_str::<S>(&json).unwrap(), s);
        let old = r#"{"big":8,"small":1152921504606846976,"many":[0,5]}"#;
        let back = serde_json::from_str::<S>(old).unwrap();
        assert_eq!((back.big, back.small, back.many), (8, 1 << 60, [0, 5]));
    }

    #[test]
    fn bad_sets_are_refused() {
        for bad in [
            r#"{"big":[128],"small":[],"many":[[],[]]}"#,
            r#"{"big":[],"small":[64],"many":[[],[]]}"#,
            r#"{"big":[1,1],"small":[],"many":[[],[]]}"#,
            r#"{"big":-1,"small":[],"many":[[],[]]}"#,
            r#"{"big":1e30,"small":[],"many":[[],[]]}"#,
            r#"{"big":[],"small":[],"many":[[]]}"#,
            r#"{"big":[],"small":[],"many":[[],[],[]]}"#,
            r#"{"big":"7","small":[],"many":[[],[]]}"#,
        ] {
            assert!(serde_json::from_str::<S>(bad).is_err(), "{bad}");
        }
    }
}
