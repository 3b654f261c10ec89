//! Eight bytes compared at once in a 64-bit word, for the few hot checks that ask which bytes
//! of a small array are zero or hold a value.

/// The top bit of every byte.
pub const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// The low seven bits of every byte.
const LOW_SEVEN: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The top bit of each non-zero byte of `x`: its low seven bits carry into it, or it is set
/// already (no carry crosses a byte).
#[inline]
pub fn nonzero_bytes(x: u64) -> u64 {
    (((x & LOW_SEVEN) + LOW_SEVEN) | x) & HIGH_BITS
}

/// The bytes of `bytes` equal to `x`, byte `k` at bit `k`.
#[inline]
pub fn bytes_equal(bytes: &[u8; 16], x: u8) -> u16 {
    let word = |w: u64| {
        let zero = !nonzero_bytes(w ^ (u64::from(x) * 0x0101_0101_0101_0101)) & HIGH_BITS;
        // The top bits of the eight bytes gathered into the top byte, byte k at bit 56 + k.
        ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
    };
    let all = u128::from_le_bytes(*bytes);
    word(all as u64) | word((all >> 64) as u64) << 8
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// Every byte value in every position, beside bytes of every kind, marks its top bit
    /// exactly when it is not zero.
    #[test]
    fn nonzero_bytes_are_the_bytes_that_are_not_zero() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                for rest in [0u8, 1, 0x7F, 0x80, 0xFF] {
                    let mut bytes = [rest; 8];
                    bytes[pos] = b;
                    let want = bytes
                        .iter()
                        .enumerate()
                        .fold(0u64, |m, (i, &x)| m | u64::from(x != 0) << (8 * i + 7));
                    assert_eq!(nonzero_bytes(u64::from_le_bytes(bytes)), want, "{bytes:?}");
                }
            }
        }
    }

    /// The bytes found equal a word at a time are those equal one by one, for values sought
    /// at both ends of a byte and in between, in arrays drawn from a few values and from all.
    #[test]
    fn bytes_equal_a_word_at_a_time_are_those_equal_one_by_one() {
        let mut rng = crate::rng_from_seed(4);
        for k in 0..20_000 {
            let mut bytes = [0u8; 16];
            for b in &mut bytes {
                *b = if k % 2 == 0 {
                    [0, 1, 2, 3, 0xFF][rng.gen_range(0..5)]
                } else {
                    rng.gen()
                };
            }
            for x in [0, 1, 2, 3, 0x7F, 0x80, 0xFE, 0xFF, rng.gen()] {
                let want = (0..16).fold(0u16, |m, i| m | u16::from(bytes[i] == x) << i);
                assert_eq!(bytes_equal(&bytes, x), want, "{bytes:?} {x}");
            }
        }
    }
}
