//! GCE psychology out of hand-to-hand combat (Special rules, Psychology):
//! Terror's flee and Frenzy's calm-down test (`terror.rs`), Stupidity's
//! movement (`stupidity.rs`). The hand-to-hand effects of Fear, Terror,
//! Stupidity, Hatred and Frenzy are in `melee/`.

pub mod stupidity;
pub mod terror;
