//! Dice the rule sets add to the dice-expression language: the kernel's
//! parser ([`Expr::parse_with`]) knows only generic dice and takes this
//! table, so `krunch prob sf+sf` reads GCE's Sustained Fire die while
//! `dice` knows no game.

use super::gce;
use crate::dice::{Expr, ExprError, NamedDie};

/// Every named die, from every rule set: each declares its own beside its
/// rules (GCE's `sf` in [`gce::NAMED_DICE`]); GCE is the only one with any
/// so far, a second rule set's dice would be joined here.
pub static NAMED_DICE: &[NamedDie] = gce::NAMED_DICE;

/// Parses a dice expression knowing every rule set's named dice: what
/// `krunch prob` and `krunch roll` read.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    Expr::parse_with(text, NAMED_DICE)
}

/// The named dice for a help text, each as `name  about` followed by three
/// spaces (`sf  Sustained Fire die (JAM = 0)   `).
pub fn help() -> String {
    NAMED_DICE
        .iter()
        .map(|d| format!("{}  {}   ", d.name, d.about))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_do_not_clash_with_the_grammar() {
        for (i, d) in NAMED_DICE.iter().enumerate() {
            assert!(
                !d.name.is_empty() && d.name.chars().all(|c| c.is_ascii_lowercase()),
                "{}",
                d.name
            );
            assert!(!d.name.starts_with(['d', 'x']), "{}", d.name);
            assert!(
                NAMED_DICE[..i].iter().all(|e| e.name != d.name),
                "{} twice",
                d.name
            );
            assert!(!d.faces.is_empty(), "{}", d.name);
        }
    }
}
