//! What every output says it was made from.

/// Provenance shared by every output.
pub struct Provenance {
    /// krunch version.
    pub version: &'static str,
    /// SHA-256 of the spec.
    pub spec_hash: String,
    /// Seed.
    pub seed: u64,
    /// The rule variants the scenario reads, `name=value` joined by `;`
    /// (a variant it never reads cannot change a result).
    pub variants: String,
}

impl Provenance {
    /// Provenance of an experiment.
    pub fn of(exp: &crate::experiment::Experiment) -> Self {
        Provenance {
            version: env!("CARGO_PKG_VERSION"),
            spec_hash: exp.spec_hash.clone(),
            seed: exp.seed,
            variants: crate::experiment::variants_text(&exp.variants_in_use()),
        }
    }
}
