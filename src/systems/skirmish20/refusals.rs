//! What the D20 skirmish scenarios must refuse (see
//! `crate::systems::Refusal`): each a change to the scenario's first test
//! point and the error it must give. `tests/refusals.rs` writes each as a
//! spec and runs it.

use crate::systems::Refusal;

/// `shooting`: a row the chart cannot hold, a shot beyond the weapon's
/// range, an area or vehicle guns where there are none, a heavy weapon
/// fired after an assault.
pub const SHOOTING: &[Refusal] = &[
    Refusal {
        what: "an X value with a modifier",
        set: &[
            ("weapon", "custom"),
            ("weapon_row", "24 | 8 | 6 | 4 | X+2 | 1 | jam"),
        ],
        unset: &[],
        field: "weapon_row",
        words: &["X means no chance"],
    },
    Refusal {
        what: "a weapon row with three armour values",
        set: &[
            ("weapon", "custom"),
            ("weapon_row", "24 | 8 | 6 | 4 | 1/2 | jam"),
        ],
        unset: &[],
        field: "weapon_row",
        words: &["3 armour values"],
    },
    Refusal {
        what: "a bad AP cost",
        set: &[("weapon_row", "24 | 8 | 6 | 4 | 1 | 3 | jam")],
        unset: &["weapon"],
        field: "weapon_row",
        words: &["must be 1, 2 or 1/2"],
    },
    Refusal {
        what: "beyond the weapon's range",
        set: &[("range", "30")],
        unset: &[],
        field: "range",
        words: &["maximum range of 24"],
    },
    Refusal {
        what: "others under a weapon with no area",
        set: &[("others_under_template", "2")],
        unset: &[],
        field: "others_under_template",
        words: &["covers no area"],
    },
    Refusal {
        what: "vehicle guns on a target that is not a vehicle",
        set: &[("target_minor_guns", "2")],
        unset: &[],
        field: "target_minor_guns",
        words: &["target_vehicle"],
    },
    Refusal {
        what: "a heavy weapon firing at assaulters before its turn",
        set: &[
            ("weapon", "heavy_bolter"),
            ("assaulted_before_turn", "true"),
        ],
        unset: &[],
        field: "assaulted_before_turn",
        words: &["Heavy weapons"],
    },
    Refusal {
        what: "an unknown armour class",
        set: &[("armour", "plate")],
        unset: &[],
        field: "armour",
        words: &["'plate'"],
    },
];

/// `effect_of_hit`: a kind of target the chart has no column for.
pub const EFFECT_OF_HIT: &[Refusal] = &[Refusal {
    what: "a target that is neither trooper nor hero",
    set: &[("target_kind", "dragon")],
    unset: &[],
    field: "target_kind",
    words: &["'dragon' is not one of: trooper, hero"],
}];

/// `vehicle_damage`: a vehicle misspelt, passengers in a walker.
pub const VEHICLE_DAMAGE: &[Refusal] = &[
    Refusal {
        what: "a vehicle misspelt",
        set: &[("vehicle", "chimaera")],
        unset: &[],
        field: "vehicle",
        words: &["did you mean 'chimera'"],
    },
    Refusal {
        what: "passengers in a Sentinel walker",
        set: &[("vehicle", "sentinel")],
        unset: &[],
        field: "passengers",
        words: &["All passengers (if APC)"],
    },
];

/// `quick_draw`: a weapon class misspelt.
pub const QUICK_DRAW: &[Refusal] = &[Refusal {
    what: "a weapon class misspelt",
    set: &[("b_weapon", "rifel")],
    unset: &[],
    field: "b_weapon",
    words: &["did you mean 'rifle'"],
}];

/// `hit_allocation`: no attacks at all.
pub const HIT_ALLOCATION: &[Refusal] = &[Refusal {
    what: "no attacks",
    set: &[("attacks", "0")],
    unset: &[],
    field: "attacks",
    words: &["0 is impossible"],
}];

/// `necron_repair`: more destroyed on a 1 than were destroyed.
pub const NECRON_REPAIR: &[Refusal] = &[Refusal {
    what: "more destroyed on a 1 than destroyed",
    set: &[("destroyed_on_a_one", "5")],
    unset: &[],
    field: "destroyed_on_a_one",
    words: &["out of only 4 destroyed"],
}];

/// `close_combat`: a walker said not to be a vehicle.
pub const CLOSE_COMBAT: &[Refusal] = &[Refusal {
    what: "a walker said not to be a vehicle",
    set: &[("defender", "walker"), ("defender_vehicle", "false")],
    unset: &[],
    field: "defender_vehicle",
    words: &["a walker", "Vehicle Damage Table"],
}];

/// `squad_under_fire`: a squad beyond the weapon's range.
pub const SQUAD_UNDER_FIRE: &[Refusal] = &[Refusal {
    what: "a squad beyond the weapon's range",
    set: &[("range", "60")],
    unset: &[],
    field: "range",
    words: &["maximum range of 24"],
}];
