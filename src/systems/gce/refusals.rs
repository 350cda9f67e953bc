//! What the GCE scenarios must refuse (see `crate::systems::Refusal`):
//! each a change to the scenario's first test point and the error it
//! must give. `tests/refusals.rs` writes each as a spec and runs it.

use crate::systems::Refusal;

/// `shooting`: a weapon misspelt, a save no die can miss.
pub const SHOOTING: &[Refusal] = &[
    Refusal {
        what: "a weapon misspelt",
        set: &[("weapon", "shotta")],
        unset: &[],
        field: "weapon",
        words: &["did you mean 'shoota'"],
    },
    Refusal {
        what: "a 1+ save",
        set: &[("save", "1")],
        unset: &[],
        field: "save",
        words: &["a 1+ save is impossible"],
    },
];

/// `grenade`: an Ammo Roll no D6 gives.
pub const GRENADE: &[Refusal] = &[Refusal {
    what: "an Ammo Roll of 7+",
    set: &[("ammo", "7+")],
    unset: &[],
    field: "ammo",
    words: &["is not an Ammo Roll (2+ to 6+)"],
}];

/// `fire`: fewer than no helpers.
pub const FIRE: &[Refusal] = &[Refusal {
    what: "negative helpers",
    set: &[("helpers", "-1")],
    unset: &[],
    field: "helpers",
    words: &["-1 is impossible"],
}];

/// `hand_to_hand`: a WS past the scale, no Attack Dice, a weapon
/// misspelt, two double-handed weapons, a custom weapon's stats without
/// one or wrong, a Fear test without Leadership, a Hatred policy without
/// Hatred or unknown, an obstacle with nobody charging, a fight nobody
/// can win.
pub const HAND_TO_HAND: &[Refusal] = &[
    Refusal {
        what: "WS 11",
        set: &[("a_ws", "11")],
        unset: &[],
        field: "a_ws",
        words: &["11"],
    },
    Refusal {
        what: "a weapon misspelt",
        set: &[("a_weapons", "chopa")],
        unset: &[],
        field: "a_weapons",
        words: &["did you mean 'choppa'"],
    },
    Refusal {
        what: "two double-handed weapons",
        set: &[("a_weapons", "demilune, uge_choppa")],
        unset: &[],
        field: "a_weapons",
        words: &["double-handed"],
    },
    Refusal {
        what: "custom stats without a custom weapon",
        set: &[("a_weapons", "choppa"), ("a_custom_damage", "D3")],
        unset: &[],
        field: "a_custom_damage",
        words: &["no 'custom' weapon"],
    },
    Refusal {
        what: "a Hatred policy without Hatred",
        set: &[("a_hatred_policy", "best")],
        unset: &[],
        field: "a_hatred_policy",
        words: &["a_hatred"],
    },
    Refusal {
        what: "an obstacle with nobody charging",
        set: &[("charger", "none"), ("obstacle", "true")],
        unset: &[],
        field: "obstacle",
        words: &["charg"],
    },
    Refusal {
        what: "no Attack Dice",
        set: &[("a_attacks", "0"), ("a_hands", "1")],
        unset: &[],
        field: "a_attacks",
        words: &["no Attack Dice"],
    },
    Refusal {
        what: "a custom weapon without its Strength",
        set: &[("a_weapons", "custom"), ("a_custom_damage", "1")],
        unset: &[],
        field: "a_custom_strength",
        words: &["a_custom_strength"],
    },
    Refusal {
        what: "too many Damage dice",
        set: &[
            ("a_weapons", "custom"),
            ("a_custom_strength", "AU+1"),
            ("a_custom_damage", "4D6"),
        ],
        unset: &[],
        field: "a_custom_damage",
        words: &["at most 3"],
    },
    Refusal {
        what: "a bad custom Strength",
        set: &[
            ("a_weapons", "custom"),
            ("a_custom_strength", "strong"),
            ("a_custom_damage", "1"),
        ],
        unset: &[],
        field: "a_custom_strength",
        words: &["AU+1"],
    },
    Refusal {
        what: "a Fear test without Leadership",
        set: &[
            ("a", "custom"),
            ("a_ws", "3"),
            ("a_attacks", "1"),
            ("a_weapons", "choppa"),
            ("b_causes", "fear"),
        ],
        unset: &[],
        field: "a_leadership",
        words: &["Fear"],
    },
    Refusal {
        what: "an unknown Hatred policy",
        set: &[("a_hatred", "true"), ("a_hatred_policy", "smart")],
        unset: &[],
        field: "a_hatred_policy",
        words: &["'smart'"],
    },
    Refusal {
        what: "nobody can wound",
        set: &[
            ("a_strength", "1"),
            ("b_strength", "1"),
            ("a_toughness", "10"),
            ("b_toughness", "10"),
        ],
        unset: &[],
        field: "a_weapons",
        words: &["never ends"],
    },
];

/// `multiple_combat`: a lone attacker is no multiple combat.
pub const MULTIPLE_COMBAT: &[Refusal] = &[Refusal {
    what: "no Attack Dice",
    set: &[("a_attacks", "0")],
    unset: &[],
    field: "a_attacks",
    words: &["0"],
}];

/// `fall`: a warrior's Wounds below one.
pub const FALL: &[Refusal] = &[Refusal {
    what: "no Wounds to lose",
    set: &[("wounds", "0")],
    unset: &[],
    field: "wounds",
    words: &["0 is impossible"],
}];

/// `vehicle_hits`: a vehicle misspelt, a Small Target vehicle, a shot
/// beyond the weapon's long range or without one, a location table or
/// Damage Table the seed's could not be, crew hit by what is no
/// template, a template rolling to hit, modifiers a vehicle never takes
/// or already has.
pub const VEHICLE_HITS: &[Refusal] = &[
    Refusal {
        what: "a vehicle misspelt",
        set: &[("vehicle", "ork_truk")],
        unset: &[],
        field: "vehicle",
        words: &["did you mean 'ork_trukk'"],
    },
    Refusal {
        what: "a vehicle as a Small Target",
        set: &[("small_target", "true")],
        unset: &[],
        field: "small_target",
        words: &["never a Small Target"],
    },
    Refusal {
        what: "a shot beyond the weapon's long range",
        set: &[("range", "19")],
        unset: &[],
        field: "range",
        words: &["beyond the weapon's long range 18"],
    },
    Refusal {
        what: "a location table of two rows",
        set: &[
            ("strength", "4"),
            ("template", "blast"),
            ("crew", "2"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
            ("locations", "crew 8, engines 10"),
            ("size", "large"),
        ],
        unset: &["weapon", "bs", "range", "shots", "vehicle"],
        field: "locations",
        words: &["six rows"],
    },
    Refusal {
        what: "armour 0",
        set: &[
            ("strength", "4"),
            ("template", "blast"),
            ("crew", "2"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
            ("locations", "crew 0, a 8, b 8, c 8, d 8, e 8"),
            ("size", "large"),
        ],
        unset: &["weapon", "bs", "range", "shots", "vehicle"],
        field: "locations",
        words: &["Armour 0 is impossible"],
    },
    Refusal {
        what: "negative crew",
        set: &[
            ("vehicle", "ork_trukk"),
            ("strength", "4"),
            ("template", "blast"),
            ("crew", "-1"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
        ],
        unset: &["weapon", "bs", "range", "shots"],
        field: "crew",
        words: &["-1 is impossible"],
    },
    Refusal {
        what: "a Damage Table for a location it lacks",
        set: &[
            ("vehicle", "ork_trukk"),
            ("strength", "4"),
            ("template", "blast"),
            ("crew", "2"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
            ("effects", "engine: a, b, c, d, e, f"),
        ],
        unset: &["weapon", "bs", "range", "shots"],
        field: "effects",
        words: &["did you mean 'engines'"],
    },
    Refusal {
        what: "a Damage Table of five results",
        set: &[
            ("vehicle", "ork_trukk"),
            ("strength", "4"),
            ("template", "blast"),
            ("crew", "2"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
            ("effects", "engines: a, b, c, d, e"),
        ],
        unset: &["weapon", "bs", "range", "shots"],
        field: "effects",
        words: &["six"],
    },
    Refusal {
        what: "a template rolling to hit",
        set: &[
            ("vehicle", "ork_trukk"),
            ("strength", "4"),
            ("template", "blast"),
            ("crew", "2"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
            ("bs", "3"),
        ],
        unset: &["weapon", "range", "shots"],
        field: "bs",
        words: &["does not roll to hit"],
    },
    Refusal {
        what: "crew hit by a shot that is not a template",
        set: &[
            ("crew", "2"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
        ],
        unset: &[],
        field: "crew",
        words: &["template"],
    },
    Refusal {
        what: "a Bike flagged a Large Target",
        set: &[("size", "small"), ("large_target", "true")],
        unset: &[],
        field: "large_target",
        words: &["excludes small Vehicles like Bikes"],
    },
    Refusal {
        what: "a Trukk's Large Target counted twice",
        set: &[("large_target", "true")],
        unset: &[],
        field: "large_target",
        words: &["counted already"],
    },
    Refusal {
        what: "a Fast Moving Warrior",
        set: &[("fast_moving_warrior", "true")],
        unset: &[],
        field: "fast_moving_warrior",
        words: &["target_moved_fast"],
    },
    Refusal {
        what: "a Shoota's shot with no range",
        set: &[],
        unset: &["range"],
        field: "range",
        words: &["range bands"],
    },
];

/// `vehicle_fire`: a fire at a location the Hit Location Table lacks.
pub const VEHICLE_FIRE: &[Refusal] = &[Refusal {
    what: "a fire on a location it lacks",
    set: &[("location", "wheel")],
    unset: &[],
    field: "location",
    words: &["did you mean 'wheels'"],
}];

/// `thrust`: a Thrust score no D6 misses.
pub const THRUST: &[Refusal] = &[Refusal {
    what: "a Thrust score of 1+",
    set: &[("thrust", "1+, 3+")],
    unset: &[],
    field: "thrust",
    words: &["2+ to 6+"],
}];

/// `out_of_control`: a driver neither gone nor down.
pub const OUT_OF_CONTROL: &[Refusal] = &[Refusal {
    what: "a driver asleep",
    set: &[("driver", "asleep")],
    unset: &[],
    field: "driver",
    words: &["'asleep' is not one of: gone, down"],
}];

/// `vehicle_hazard`: a hazard misspelt.
pub const VEHICLE_HAZARD: &[Refusal] = &[Refusal {
    what: "a hazard misspelt",
    set: &[("hazard", "squish")],
    unset: &[],
    field: "hazard",
    words: &["did you mean 'squash'"],
}];

/// `ram`: an impact misspelt, a Swerve test in a head-on ram, a mixed
/// strategy that is not three weights.
pub const RAM: &[Refusal] = &[
    Refusal {
        what: "an unknown impact",
        set: &[("impact", "tbone")],
        unset: &[],
        field: "impact",
        words: &["did you mean 't_bone'"],
    },
    Refusal {
        what: "a Swerve test in a head-on ram",
        set: &[("impact", "head_on")],
        unset: &[],
        field: "target_leadership",
        words: &["head-on"],
    },
    Refusal {
        what: "a strategy of two weights",
        set: &[("impact", "head_on"), ("rammer_strategy", "1, 2")],
        unset: &["target_leadership"],
        field: "rammer_strategy",
        words: &["three whole weights"],
    },
];

/// `boarding`: a vehicle without crew to board, unopposed boarders at a
/// location it lacks.
pub const BOARDING: &[Refusal] = &[
    Refusal {
        what: "no crew",
        set: &[("crew", "0")],
        unset: &[],
        field: "crew",
        words: &["0 is impossible"],
    },
    Refusal {
        what: "unopposed boarders at a location it lacks",
        set: &[("unopposed_location", "engine")],
        unset: &[],
        field: "unopposed_location",
        words: &["did you mean 'engines'"],
    },
];

/// `gate`: a gate no Strength can dent.
pub const GATE: &[Refusal] = &[Refusal {
    what: "a gate no Strength can dent",
    set: &[("strength", "2")],
    unset: &[],
    field: "strength",
    words: &["never reach Armour 9"],
}];
