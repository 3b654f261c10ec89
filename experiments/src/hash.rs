//! The content hash of a run's manifest: FNV-1a 64 (the `fnv` crate), as 16 hex digits. It
//! names parameter sets and lets a resume notice an edited data or weights file, so its values
//! must never change (a test pins them).

use std::hash::Hasher;

/// FNV-1a 64-bit hash of `text`'s bytes, as a 16-digit hex string.
pub fn fnv_hex(text: &str) -> String {
    let mut h = fnv::FnvHasher::default();
    h.write(text.as_bytes());
    format!("{:016x}", h.finish())
}

#[cfg(test)]
mod tests {
    use super::fnv_hex;

    /// The values of the hand-written FNV-1a this replaced (in manifests of earlier runs).
    #[test]
    fn hashes_are_those_of_earlier_runs() {
        assert_eq!(fnv_hex(""), "cbf29ce484222325");
        assert_eq!(fnv_hex("a"), "af63dc4c8601ec8c");
        assert_eq!(fnv_hex("foobar"), "85944171f73967e8");
    }

    /// Each game's built-in data hashes as in the manifests of earlier runs (3 players).
    #[test]
    fn data_hashes_are_those_of_earlier_manifests() {
        use shifu_engine::ginza_retro_cafe::GinzaRetroCafe;
        use shifu_engine::present::{BuildOptions, Present};
        use shifu_engine::tofu_kingdom::TofuKingdom;
        use shifu_engine::tofu_shifu::TofuShifu;
        use shifu_engine::wok_star::WokStar;
        fn hash<G: Present>() -> String {
            let options = BuildOptions {
                players: Some(3),
                ..BuildOptions::default()
            };
            fnv_hex(&G::build(&options).unwrap().data_text())
        }
        assert_eq!(hash::<TofuShifu>(), "147faefefbe82a62");
        assert_eq!(hash::<TofuKingdom>(), "dd0652f51ba7158f");
        assert_eq!(hash::<WokStar>(), "56eee19345669b94");
        assert_eq!(hash::<GinzaRetroCafe>(), "68f7db826ee712fe");
    }
}
