//! Kry-Gothic (`seeds/000_e9ab87dd866033e2.txt`): dice with targets of 7+
//! under both readings, keep dice and attribute checks; ranged combat;
//! close combat with its attack/defence choices solved as a zero-sum game;
//! pinning, fear and pure horror, action points, order combos and damaged
//! structure.
//!
//! This module is the list of the scenarios, the rule variants and the
//! presets. Each scenario is one module beside the rule it builds: in it
//! where the rule stays a readable size (`game.rs`, `fight.rs`, `psych.rs`),
//! else as its `scenario` child (`dice/scenario.rs`, `ranged/scenario.rs`,
//! `close/scenario.rs`).

pub mod close;
pub mod dice;
pub mod fast;
pub mod fight;
pub mod game;
mod naive;
pub mod pinning_fire;
pub mod psych;
pub mod ranged;
pub mod volley;

use crate::systems::{PresetDecl, RuleSet, Variant, VariantDef};

/// The seed file.
pub const SEED: &str = "000_e9ab87dd866033e2.txt";

/// Kry-Gothic as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "krygothic",
    title: "Kry-Gothic",
    seed: SEED,
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: PRESETS,
    scenarios: &[
        dice::scenario::DICE_SCENARIO,
        ranged::scenario::RANGED_SCENARIO,
        close::CLOSE_COMBAT_SCENARIO,
        game::CLOSE_COMBAT_GAME_SCENARIO,
        fight::CLOSE_COMBAT_FIGHT_SCENARIO,
        psych::PINNING_SCENARIO,
        psych::FEAR_SCENARIO,
        psych::ACTION_POINTS_SCENARIO,
        psych::ORDER_COMBO_SCENARIO,
        psych::DAMAGED_STRUCTURE_SCENARIO,
        pinning_fire::PINNING_FIRE_SCENARIO,
        volley::VOLLEY_SCENARIO,
        volley::TURNS_TO_KILL_SCENARIO,
    ],
};

/// The readings the text leaves open.
pub const VARIANTS: &[VariantDef] = &[
    dice::Reading::DEF,
    ranged::WoundBy::DEF,
    dice::Critical::DEF,
    close::situation::DeflectBreak::DEF,
    close::situation::CounterRoll::DEF,
    psych::PinningHit::DEF,
    psych::HorrorMove::DEF,
];

/// The Average Joe's numbers (Mind 3 is left out: no rule here reads it).
const UNIT: &[(&str, &str)] = &[
    ("speed", "3"),
    ("strength", "2"),
    ("body", "2"),
    ("will", "3"),
    ("cc", "2"),
    ("rc", "2"),
];

/// Presets: only what the seed gives.
pub const PRESETS: &[PresetDecl] = &[
    PresetDecl {
        catalogue: "unit",
        name: "average_joe",
        sets: UNIT,
        source: "\"Troop type: Average Joe / Speed - 3 (X) / Strength - 2 / Body - 2 (X) / Mind - 3 / Willpower - 3 / CC - 2 / RC - 2\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "pistol",
        sets: &[
            ("aim", "3"),
            ("damage", "2"),
            ("strength", "1"),
            ("short_range", "2"),
            ("long_range", "6"),
        ],
        source: "\"Weapon Name - Pistol / Cost - 20 / Stats - 3K2S1 / SR - 2 inches or under / MR - See definition / LR - 6 inches or over\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "autocannon",
        sets: &[("aim", "6"), ("damage", "2")],
        source: "\"a Autocannon which is 6K2 is going to be spraying bullets everywhere\" (no S, SR or LR given)",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "hand_flamer",
        sets: &[("aim", "1"), ("damage", "5")],
        source: "\"A hand flamer on the other hand, which is 1k5\" (no S, SR or LR given)",
    },
    PresetDecl {
        catalogue: "cc_weapon",
        name: "axe",
        sets: &[("cc", "-1"), ("str", "2"), ("armour_piercing", "true")],
        source: "\"Weapon: Axe / Cost: 10 / Stats: -1cc/+2str / Weapon effects: Armor piercing\"",
    },
    PresetDecl {
        catalogue: "cc_weapon",
        name: "knife",
        sets: &[("cc", "2"), ("str", "-1")],
        source: "\"a knife is +2cc/-1str to show it is quick but not strong\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "ralim",
        sets: &[("tactics", "15")],
        source: "\"Ralim, Protarian >>> 15\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "protarian",
        sets: &[("tactics", "15")],
        source: "\"Ralim, Protarian >>> 15\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "renegades",
        sets: &[("tactics", "13")],
        source: "\"Renegades >>> 13\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "wraith",
        sets: &[("tactics", "13")],
        source: "\"Wraith >>> 13\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "slaves",
        sets: &[("tactics", "12")],
        source: "\"Slaves >>> 12\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "the_hive",
        sets: &[("tactics", "10")],
        source: "\"The Hive >>> 10\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "the_forgotten",
        sets: &[("tactics", "10")],
        source: "\"The Forgotten >>> 10\"",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{ParamError, seed_text};

    /// Presets and the Tactics Ratings quoted from the seed, read back out
    /// of the seed text.
    #[test]
    fn presets_are_the_seeds() {
        if !seed_text::available(SEED) {
            return;
        }
        let text = seed_text::seed(SEED);
        let flat: String = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        for p in PRESETS {
            // each quoted fragment between the first pair of quotes
            let quoted = p.source.split('"').nth(1).expect("a quote");
            assert!(flat.contains(quoted), "{}: seed has '{quoted}'", p.name);
        }
        for (team, rating) in [
            ("Ralim, Protarian", 15),
            ("Renegades", 13),
            ("Wraith", 13),
            ("Slaves", 12),
            ("The Hive", 10),
            ("The Forgotten", 10),
        ] {
            assert!(text.contains(&format!("{team} >>> {rating}")), "{team}");
        }
    }

    fn build_err(scenario: &str, given: &[(&str, &str)]) -> ParamError {
        crate::systems::testing::refused(&RULES, scenario, given)
    }

    /// Bad input is refused naming the parameter.
    #[test]
    fn bad_input_is_named() {
        let e = build_err(
            "ranged",
            &[
                ("weapon", "autocannon"),
                ("firer_rc", "3"),
                ("range", "4"),
                ("target", "average_joe"),
            ],
        );
        assert_eq!(e.field, "weapon_strength");
        assert!(e.message.contains("invents none"), "{}", e.message);
        let e = build_err(
            "ranged",
            &[
                ("weapon", "pistol"),
                ("firer_rc", "3"),
                ("range", "4"),
                ("target", "average_joe"),
                ("fire_mode", "suppressive"),
            ],
        );
        assert_eq!(e.field, "fire_mode");
        let e = build_err(
            "ranged",
            &[
                ("weapon", "autocannon"),
                ("weapon_strength", "2"),
                ("firer_rc", "3"),
                ("range", "4"),
                ("target", "average_joe"),
                ("fire_mode", "snap"),
                ("ap_budget", "40"),
            ],
        );
        assert_eq!(e.field, "ap_budget");
        assert!(e.message.contains("more than the 120"), "{}", e.message);
        let e = build_err("dice", &[("check", "keep"), ("dice", "2"), ("keep", "3")]);
        assert_eq!(e.field, "keep");
        let e = build_err("dice", &[("check", "die")]);
        assert_eq!(e.field, "target");
        let joes = [("attacker", "average_joe"), ("defender", "average_joe")];
        let e = build_err("close_combat", &[joes[0], joes[1], ("attack", "weapon")]);
        assert_eq!(e.field, "attack");
        let e = build_err(
            "close_combat",
            &[joes[0], joes[1], ("attack", "kick"), ("defence", "parry")],
        );
        assert_eq!(e.field, "defence");
        let e = build_err(
            "close_combat",
            &[joes[0], joes[1], ("defence", "deflect"), ("attack", "kick")],
        );
        assert_eq!(e.field, "defence");
        let e = build_err(
            "close_combat",
            &[
                joes[0],
                joes[1],
                ("attack", "kick"),
                ("attacker_weapon_cc", "2"),
            ],
        );
        assert_eq!(e.field, "attacker_weapon_cc");
        let e = build_err(
            "close_combat",
            &[joes[0], joes[1], ("initiator", "true"), ("charged", "true")],
        );
        assert_eq!(e.field, "charged");
        let e = build_err("pinning", &[("will", "3"), ("shooterz", "2")]);
        assert!(
            e.message.contains("did you mean 'shooters'"),
            "{}",
            e.message
        );
        let e = build_err("action_points", &[("team", "orks")]);
        assert_eq!(e.field, "team");
    }
}
