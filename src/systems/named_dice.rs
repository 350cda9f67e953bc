//! Dice the rule sets add to the dice-expression language: the kernel's
//! parser ([`Expr::parse_with`]) knows only generic dice and takes this
//! table, so `krunch prob sf+sf` reads GCE's Sustained Fire die while
//! `dice` knows no game.

use crate::dice::{Expr, ExprError, NamedDie};

/// GCE's Sustained Fire die (Introduction, "Dice"): "Its faces are 1, 1, 2,
/// 2, 3, and "JAM!"", the JAM counting 0 shots. A test checks the faces
/// against the rule's own reading, `gce::tables::sustained_fire`.
pub const SUSTAINED_FIRE: NamedDie = NamedDie {
    name: "sf",
    faces: &[1, 1, 2, 2, 3, 0],
    about: "Sustained Fire die (JAM = 0)",
};

/// Every named die, from every rule set.
pub static NAMED_DICE: &[NamedDie] = &[SUSTAINED_FIRE];

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
    fn the_sustained_fire_die_is_the_rules_own() {
        let faces: Vec<i64> = (1..=6)
            .map(|d6| super::super::gce::tables::sustained_fire(d6).map_or(0, i64::from))
            .collect();
        assert_eq!(SUSTAINED_FIRE.faces, faces);
        let d = parse("sf+sf").unwrap().exact().unwrap();
        assert!((d.pmf(6) - 1.0 / 36.0).abs() < 1e-12);
        assert!((d.mean() - 3.0).abs() < 1e-12);
    }

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
