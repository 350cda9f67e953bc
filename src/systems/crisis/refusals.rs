//! What the Crisis scenarios must refuse (see `crate::systems::Refusal`):
//! each a change to the scenario's first test point and the error it
//! must give. `tests/refusals.rs` writes each as a spec and runs it.

use crate::systems::Refusal;

/// `check`: a Difficulty Level misspelt or past the ladder, assets as a
/// count, a roll that is no roll.
pub const CHECK: &[Refusal] = &[
    Refusal {
        what: "a Difficulty Level name with a typo",
        set: &[("difficulty", "hrad")],
        unset: &[],
        field: "difficulty",
        words: &["did you mean 'hard'"],
    },
    Refusal {
        what: "a Difficulty Level past the ladder",
        set: &[("difficulty", "41")],
        unset: &[],
        field: "difficulty",
        words: &["0 to 40"],
    },
    Refusal {
        what: "assets as a count, not types",
        set: &[("assets", "2")],
        unset: &[],
        field: "assets",
        words: &["name the asset types"],
    },
    Refusal {
        what: "a roll that cannot be read",
        set: &[("roll", "2d6+")],
        unset: &[],
        field: "roll",
        words: &["cannot be read"],
    },
    Refusal {
        what: "a roll that is a comparison",
        set: &[("roll", "2d6>=7")],
        unset: &[],
        field: "roll",
        words: &["comparison"],
    },
    Refusal {
        what: "an Extras step of 0",
        set: &[("extras_step", "0")],
        unset: &[],
        field: "extras_step",
        words: &["0 is impossible"],
    },
];

/// `turn_order`: a Mind the seed's attributes cannot have, a surprise
/// nobody springs.
pub const TURN_ORDER: &[Refusal] = &[
    Refusal {
        what: "a Mind past the attribute scale",
        set: &[("pc_mind", "31")],
        unset: &[],
        field: "pc_mind",
        words: &["31"],
    },
    Refusal {
        what: "a surprise by nobody",
        set: &[("surprise", "gm")],
        unset: &[],
        field: "surprise",
        words: &["'gm'"],
    },
];

/// `attack`: more attacks than the weapon's Rate of Fire, a Parry
/// against a ranged attack.
pub const ATTACK: &[Refusal] = &[
    Refusal {
        what: "more attacks than the RoF",
        set: &[("attacks", "4")],
        unset: &[],
        field: "attacks",
        words: &["RoF"],
    },
    Refusal {
        what: "Parry on a ranged attack",
        set: &[("target_parry", "7")],
        unset: &[],
        field: "target_parry",
        words: &["DL 4"],
    },
];

/// `fight`: a fight that never ends, a melee attack without the Parry it
/// rolls against, an intent misspelt, a roll too large to evaluate.
pub const FIGHT: &[Refusal] = &[
    Refusal {
        what: "a fight against total cover never ends",
        set: &[("cover", "total")],
        unset: &[],
        field: "cover",
        words: &["never ends"],
    },
    Refusal {
        what: "a melee attack without the target's Parry",
        set: &[("kind", "melee")],
        unset: &[],
        field: "target_parry",
        words: &["Parry"],
    },
    Refusal {
        what: "a knock-out intent misspelt",
        set: &[("intent", "knockout")],
        unset: &[],
        field: "intent",
        words: &["did you mean 'knock_out'"],
    },
    Refusal {
        what: "a roll too large to evaluate",
        set: &[("roll", "1000d10000")],
        unset: &[],
        field: "roll",
        words: &["cannot be evaluated"],
    },
];

/// `damage`: one hit given both fixed Extras and an attack roll, a hit on
/// a target already dead.
pub const DAMAGE: &[Refusal] = &[
    Refusal {
        what: "both fixed Extras and an attack roll",
        set: &[("extras", "2")],
        unset: &[],
        field: "extras",
        words: &["not both"],
    },
    Refusal {
        what: "a target already dead",
        set: &[("wounds_before", "30")],
        unset: &[],
        field: "wounds_before",
        words: &["dead already"],
    },
];

/// `scatter`: a direction the hex grid's d6 cannot show.
pub const SCATTER: &[Refusal] = &[Refusal {
    what: "a scatter direction the hex grid's d6 cannot show",
    set: &[("grid", "hex"), ("bystander_direction", "7")],
    unset: &[],
    field: "bystander_direction",
    words: &["d6"],
}];

/// `healing`: a patient already dead.
pub const HEALING: &[Refusal] = &[Refusal {
    what: "a dead patient to heal",
    set: &[("health", "5"), ("wounds", "15")],
    unset: &[],
    field: "wounds",
    words: &["dead"],
}];
