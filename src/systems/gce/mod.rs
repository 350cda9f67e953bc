//! Gorkamorka Community Edition (`seeds/002_8c1a109281471897.txt`).

pub mod hazards;
pub mod melee;
mod naive;
pub mod shooting;
pub mod tables;
pub mod target;
pub mod vehicles;
pub mod warrior;
pub mod weapon;

use crate::dice::NamedDie;
use crate::engine::step_model::StepModel;
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params, Refusal};
use crate::systems::{RuleSet, Scenario, VariantDef};
use shooting::{Coverage, Firer, Shooting, ShootingModel, Target};
use target::{HitModifiers, TO_HIT, VictimParams, overwatch_bonus, save_value};
use weapon::{Ammo, Template, Weapon, WeaponParams};

/// GCE as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "gce",
    title: "Gorkamorka Community Edition",
    seed: tables::SEED,
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: PRESETS,
    scenarios: &[
        SHOOTING_SCENARIO,
        GRENADE_SCENARIO,
        FIRE_SCENARIO,
        melee::hand_to_hand::HAND_TO_HAND_SCENARIO,
        melee::multiple_combat::MULTIPLE_COMBAT_SCENARIO,
        FALL_SCENARIO,
        vehicles::params::hits::VEHICLE_HITS_SCENARIO,
        vehicles::params::fire::VEHICLE_FIRE_SCENARIO,
        vehicles::params::thrust::THRUST_SCENARIO,
        vehicles::params::out_of_control::OUT_OF_CONTROL_SCENARIO,
        vehicles::params::hazard::VEHICLE_HAZARD_SCENARIO,
        vehicles::params::ram::RAM_SCENARIO,
        vehicles::params::boarding::BOARDING_SCENARIO,
        vehicles::params::gate::GATE_SCENARIO,
    ],
};

/// The `shooting` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const SHOOTING_SCENARIO: Scenario = Scenario {
    name: "shooting",
    about: "one shooter, one weapon, one target: to hit, wound, save, damage, injury, pinning, ammo",
    seed_section: "Shooting, Steps 1-6; Firing on Full Auto; Ammo Rolls; Blast Markers and Templates",
    params: ShootingParams::decls,
    metrics: shooting::metric_catalog,
    build: |p, v| Ok(Box::new(shooting_model(p, v)?)),
    variants: &["overwatch"],
    test_points: &[
        &[
            ("weapon", "shoota"),
            ("bs", "3"),
            ("range", "8"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("save", "5"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        &[
            ("weapon", "eavy_shoota"),
            ("long_range", "18"),
            ("short_hit", "0"),
            ("long_hit", "0"),
            ("strength", "4"),
            ("damage", "D3"),
            ("ammo", "auto"),
            ("fire_mode", "full_auto"),
            ("bs", "2"),
            ("range", "20"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "4"),
            ("target_ws", "1"),
            ("target_bs", "1"),
            ("firer_toughness", "3"),
            ("firer_save", "6"),
            ("friend_within_2in", "true"),
            ("target_initiative", "3"),
        ],
        &[
            ("weapon", "skorcha"),
            ("strength", "4"),
            ("save_mod", "-1"),
            ("damage", "1"),
            ("ammo", "5"),
            ("coverage", "partial"),
            ("bs", "3"),
            ("toughness", "4"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        // the same burst in range (18", the long band): every shot
        // can hit, wound and take the target down (the benchmarks'
        // full auto row)
        &[
            ("weapon", "eavy_shoota"),
            ("long_range", "18"),
            ("short_hit", "0"),
            ("long_hit", "0"),
            ("strength", "4"),
            ("damage", "D3"),
            ("ammo", "auto"),
            ("fire_mode", "full_auto"),
            ("bs", "2"),
            ("range", "18"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "4"),
            ("target_ws", "1"),
            ("target_bs", "1"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a weapon misspelt",
            point: 0,
            set: &[("weapon", "shotta")],
            unset: &[],
            field: "weapon",
            words: &["did you mean 'shoota'"],
        },
        Refusal {
            what: "a 1+ save",
            point: 0,
            set: &[("save", "1")],
            unset: &[],
            field: "save",
            words: &["a 1+ save is impossible"],
        },
    ],
    naive: crate::systems::gce::naive::SHOOTING,
};

/// The `grenade` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const GRENADE_SCENARIO: Scenario = Scenario {
    name: "grenade",
    about: "a thrown grenade: on target, or where it scatters (duds, Unreliable Explosives)",
    seed_section: "Grenades and Stikkbombz; Throw Table; Scattering Grenades; Unreliable Explosives",
    params: GrenadeParams::decls,
    metrics: || hazards::GRENADE_METRICS.to_vec(),
    build: build_grenade,
    variants: &["overwatch"],
    test_points: &[
        &[
            ("bs", "3"),
            ("user_strength", "3"),
            ("range", "6"),
            ("ammo", "4+"),
        ],
        &[("bs", "2"), ("user_strength", "2"), ("range", "7")],
    ],
    refusals: &[Refusal {
        what: "an Ammo Roll of 7+",
        point: 0,
        set: &[("ammo", "7+")],
        unset: &[],
        field: "ammo",
        words: &["is not an Ammo Roll (2+ to 6+)"],
    }],
    naive: crate::systems::gce::naive::GRENADE,
};

/// The `fire` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const FIRE_SCENARIO: Scenario = Scenario {
    name: "fire",
    about: "a warrior on Fire, turn after turn until the fire goes out",
    seed_section: "Fire (Catching Fire)",
    params: FireParams::decls,
    metrics: hazards::fire_metric_catalog,
    build: build_fire,
    variants: &[],
    test_points: &[
        &[
            ("toughness", "3"),
            ("wounds", "2"),
            ("save", "6"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        &[
            ("toughness", "4"),
            ("wounds", "1"),
            ("target_ws", "1"),
            ("target_bs", "1"),
            ("helpers", "2"),
        ],
    ],
    refusals: &[Refusal {
        what: "negative helpers",
        point: 0,
        set: &[("helpers", "-1")],
        unset: &[],
        field: "helpers",
        words: &["-1 is impossible"],
    }],
    naive: crate::systems::gce::naive::FIRE,
};

/// The `fall` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const FALL_SCENARIO: Scenario = Scenario {
    name: "fall",
    about: "Fall Damage, and the warrior it lands on",
    seed_section: "Fall Damage",
    params: FallParams::decls,
    metrics: || hazards::FALL_METRICS.to_vec(),
    build: build_fall,
    variants: &[],
    test_points: &[
        &[
            ("height", "7"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("lands_on_warrior", "true"),
        ],
        &[
            ("height", "4"),
            ("toughness", "3"),
            ("wounds", "2"),
            ("target_ws", "2"),
            ("target_bs", "1"),
        ],
    ],
    refusals: &[Refusal {
        what: "no Wounds to lose",
        point: 0,
        set: &[("wounds", "0")],
        unset: &[],
        field: "wounds",
        words: &["0 is impossible"],
    }],
    naive: crate::systems::gce::naive::FALL,
};

/// Every GCE preset: weapons for shooting, warriors for hand-to-hand.
const PRESETS: &[crate::systems::PresetDecl] = &{
    const W: usize = weapon::PRESETS.len();
    const M: usize = melee::PRESETS.len();
    const V: usize = vehicles::damage::PRESETS.len();
    let mut all = [weapon::PRESETS[0]; W + M + V];
    let mut i = 0;
    while i < W + M + V {
        all[i] = if i < W {
            weapon::PRESETS[i]
        } else if i < W + M {
            melee::PRESETS[i - W]
        } else {
            vehicles::damage::PRESETS[i - W - M]
        };
        i += 1;
    }
    all
};

/// The dice GCE adds to the dice-expression language (`krunch prob sf+sf`),
/// gathered with every rule set's in [`crate::systems::named_dice`].
pub const NAMED_DICE: &[NamedDie] = &[tables::SUSTAINED_FIRE];

/// Rule variants of GCE.
pub const VARIANTS: &[VariantDef] = &[
    VariantDef {
        name: "overwatch",
        values: &["current", "original"],
        about: "Overwatch hit modifier: 'current' +1 (v1.4 changelog: \"Buffed Overwatch to give +1 to hit rather than -1\"), 'original' -1",
    },
    VariantDef {
        name: "large_rake",
        values: &["versus_small", "always"],
        about: "Rakes: \"larger Vehicles only take D3 -1\" when raked with a small vehicle ('versus_small', the paragraph is about small vehicles) or whenever raked ('always')",
    },
    VariantDef {
        name: "boarding_bonus",
        values: &["cancelled", "plus_one"],
        about: "Boarders' first fight: charge +1 and obstacle -1 cancel ('cancelled', Charging Vehicles Modifiers) or +1 (the Pilin' On example: \"a +1 as he has successfully boarded this turn\")",
    },
    VariantDef {
        name: "boarding_loser",
        values: &["every_loser", "down_or_out"],
        about: "Who is thrown overboard after a round aboard: every loser ('every_loser', Step 11: \"Regardless of whether they’re Wounded or not\"; Pilin' On throws the losing lead) or only a loser who went Down or Out of Action ('down_or_out', Losing Combat)",
    },
    VariantDef {
        name: "stationary_hits",
        values: &["attacks", "ws"],
        about: "An unopposed boarder's automatic hits on a Stationary vehicle: its Attacks ('attacks', Stationary Vehicles (Close Combat): \"a number of times equal to their Attack Statline\") or its Weapon Skill ('ws', the v1.4 changelog: \"Attacking Stationary Vehicles and Gates patched with WS only\"); a gate's hits are WS under both",
    },
    VariantDef {
        name: "second_weapon",
        values: &["only_with_bonus", "always"],
        about: "A warrior denied the Specialisation Bonus (\"Warriors that are carrying any ranged-only weapons cannot receive this bonus\") fights with the first weapon it lists alone ('only_with_bonus': Grimgutz \"rolls a single Attack Dice\" with his Choppa, the Knife stays out) or still alternates every weapon in hand ('always')",
    },
    VariantDef {
        name: "multiple_first_round",
        values: &["phase", "first_attacker"],
        about: "A multiple combat's first round, where a warrior 'higher up for the first round' (Forts) is higher up: every attacker's fight of the phase ('phase': a round is a turn, as Charging's \"+1 Modifier for that Round. If the combat continues into another turn then the Modifier no longer applies\") or the first attacker's alone ('first_attacker': \"Multiple Combat situations are broken down into several rounds of combat\")",
    },
];

crate::param_struct! {
    /// Parameters of the shooting scenario.
    pub struct ShootingParams {
        ..weapon: WeaponParams,
        bs: i64 = int(0, 10)
            .required()
            .about("the shooter's Ballistic Skill")
            .seed(TO_HIT),
        user_strength: i64 = int(0, 10)
            .default("3")
            .about("the shooter's Strength, for \"Varies\" save modifiers")
            .seed("Weapon Statlines"),
        fire_mode: String = choice(&["single", "full_auto"])
            .default("single")
            .about("a single shot, or Full Auto with the Sustained Fire dice")
            .seed("Firing on Full Auto"),
        sf_fired: Opt<i64> = int(1, 6)
            .about("Sustained Fire dice fired on Full Auto (default: every one the weapon has)")
            .seed("Firing on Full Auto"),
        range: Opt<f64> = real(0.0, 1000.0)
            .about("inches to the target (not used by teardrop templates)")
            .seed("Range Modifiers"),
        coverage: String = choice(&["aimed", "full", "partial"])
            .default("aimed")
            .about("under a blast marker or template: the aimed-at target, wholly under it, or partly (4+)")
            .seed("Blast Markers and Templates"),
        ..hit: HitModifiers,
        ..victim: VictimParams,
        friend_within_2in: bool = flag()
            .about("a friend not Pinned or Down within 2\": the target may test to escape Pinning")
            .seed("Escaping from Pinning"),
        target_initiative: Opt<i64> = int(1, 10)
            .about("the target's Initiative, for the escape test (with friend_within_2in)")
            .seed("Escaping from Pinning")
            .needs("friend_within_2in", "true"),
        firer_toughness: Opt<i64> = int(1, 10)
            .about("the firer's Toughness: resolves an exploding weapon's S-1 hit on the firer")
            .seed("Exploding Weapons"),
        firer_save: Opt<i64> = int(0, 7)
            .about("the firer's save against that hit (with firer_toughness)")
            .seed("Exploding Weapons")
            .needs_any("firer_toughness", "3"),
    }
}

crate::param_struct! {
    /// Parameters of the grenade scenario.
    pub struct GrenadeParams {
        bs: i64 = int(0, 10)
            .required()
            .about("the thrower's Ballistic Skill")
            .seed(TO_HIT),
        user_strength: i64 = int(1, 10)
            .required()
            .about("the thrower's Strength, for the throw range")
            .seed("Throw Table"),
        range: f64 = real(0.0, 1000.0)
            .required()
            .about("inches to the target")
            .seed("Throw Table"),
        ammo: Opt<String> = text("4+")
            .about("the grenade's Ammo Roll (2+ to 6+), if it has one")
            .seed("Ammo Rolls"),
        ..hit: HitModifiers,
    }
}

crate::param_struct! {
    /// Parameters of the fire scenario.
    pub struct FireParams {
        ..victim: VictimParams,
        helpers: i64 = int(0, 5)
            .default("0")
            .about("friends helping put the fire out each turn (+1 each)")
            .seed("Fire"),
    }
}

crate::param_struct! {
    /// Parameters of the fall scenario.
    pub struct FallParams {
        ..victim: VictimParams,
        height: f64 = real(0.0, 100.0)
            .required()
            .about("inches fallen")
            .seed("Fall Damage"),
        lands_on_warrior: bool = flag()
            .about("it lands on another warrior (4+: the same damage)")
            .seed("Fall Damage"),
    }
}

/// Builds the shooting model from the spec's parameters as given, for
/// tests and benches that need its two samplers: presets are filled in
/// and values checked against [`ShootingParams`] here, as the registry
/// does before it builds a scenario.
pub fn build_shooting(given: &Params, variants: &Params) -> Result<ShootingModel, ParamError> {
    let decls = ShootingParams::decls();
    let p = RULES.resolve(&decls, given)?.bound(decls);
    shooting_model(&p, &variants.bound(RULES.variant_decls()))
}

/// The shooting model from parameters the registry has checked.
fn shooting_model(p: &Params, variants: &Params) -> Result<ShootingModel, ParamError> {
    let p = ShootingParams::read(p)?;
    let overwatch_bonus = overwatch_bonus(variants)?;
    let weapon = Weapon::from_params(&p.weapon)?;
    let full_auto_dice = match p.fire_mode.as_str() {
        "full_auto" => {
            if weapon.sustained_fire_dice == 0 {
                return Err(ParamError::new(
                    crate::param_name!(ShootingParams.fire_mode),
                    format!(
                        "weapon '{}' has no Sustained Fire dice, so it cannot fire on full auto",
                        weapon.name
                    ),
                ));
            }
            let fired = p
                .sf_fired
                .value
                .unwrap_or(i64::from(weapon.sustained_fire_dice)) as u32;
            if fired > weapon.sustained_fire_dice {
                return Err(ParamError::new(
                    p.sf_fired.name(),
                    format!(
                        "{fired} Sustained Fire dice, but weapon '{}' has {}",
                        weapon.name, weapon.sustained_fire_dice
                    ),
                ));
            }
            fired
        }
        _ => 0,
    };
    let range = if weapon.template == Template::Teardrop {
        None
    } else {
        Some(p.range.need()?)
    };
    let hit_modifier = p.hit.total(overwatch_bonus);
    let coverage = match p.coverage.as_str() {
        "full" => Coverage::Full,
        "partial" => Coverage::Partial,
        _ => Coverage::Aimed,
    };
    if coverage != Coverage::Aimed && weapon.template == Template::None {
        return Err(ParamError::new(
            crate::param_name!(ShootingParams.coverage),
            "coverage applies to blast markers and teardrop templates; this weapon has neither",
        ));
    }
    let target = Target {
        stats: p.victim.stats()?,
        escape_initiative: if p.friend_within_2in {
            Some(p.target_initiative.need()? as u8)
        } else {
            None
        },
    };
    if target.escape_initiative.is_none() && p.target_initiative.value.is_some() {
        return Err(ParamError::new(
            p.target_initiative.name(),
            "only used with friend_within_2in = true (no friend near, no escape test)",
        ));
    }
    let firer = match p.firer_toughness.value {
        Some(t) => Some(Firer {
            toughness: t as u8,
            save: save_value(&p.firer_save)?,
        }),
        None if p.firer_save.value.is_some() => {
            return Err(ParamError::new(
                p.firer_save.name(),
                "set firer_toughness too",
            ));
        }
        None => None,
    };
    Ok(ShootingModel::new(Shooting {
        weapon,
        bs: p.bs as i32,
        user_strength: p.user_strength as u8,
        full_auto_dice,
        range,
        hit_modifier,
        coverage,
        target,
        firer,
    }))
}

fn build_grenade(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = GrenadeParams::read(p)?;
    let bonus = overwatch_bonus(variants)?;
    let strength = p.user_strength as u8;
    let ammo = match &p.ammo.value {
        None => None,
        Some(w) => match Ammo::parse(w) {
            Ok(Ammo::Score(a)) => Some(a),
            _ => {
                return Err(ParamError::new(
                    p.ammo.name(),
                    format!("'{w}' is not an Ammo Roll (2+ to 6+)"),
                ));
            }
        },
    };
    let g = hazards::Grenade {
        bs: p.bs as i32,
        hit_modifier: p.hit.total(bonus),
        in_range: p.range <= f64::from(hazards::throw_range(strength)),
        ammo,
    };
    Ok(Box::new(StepModel::new(g.into_rule())))
}

fn build_fire(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FireParams::read(p)?;
    let fire = hazards::Fire {
        victim: p.victim.stats()?,
        helpers: p.helpers as u32,
    };
    Ok(Box::new(fire.into_model()))
}

fn build_fall(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FallParams::read(p)?;
    let f = hazards::Fall {
        height: p.height,
        victim: p.victim.stats()?,
        lands_on_warrior: p.lands_on_warrior,
    };
    Ok(Box::new(StepModel::new(f.into_rule())))
}

#[cfg(test)]
mod tests {
    use crate::systems::{ParamErrorKind, ParamValue, Params};

    #[test]
    fn every_missing_parameter_is_named_at_once() {
        // A newcomer's 'Eavy Shoota profile with nothing else: one error
        // lists every number the seed does not give and the target lacks.
        let mut p = Params::new();
        p.set("weapon", ParamValue::Str("eavy_shoota".into()));
        let e = crate::systems::gce::RULES
            .build("shooting", &p, &Params::new())
            .err()
            .expect("incomplete profile");
        assert_eq!(e.kind, ParamErrorKind::Missing);
        for field in [
            "long_range",
            "strength",
            "damage",
            "ammo",
            "bs",
            "toughness",
            "wounds",
            "target_ws",
            "target_bs",
            "range",
        ] {
            assert!(e.missing.iter().any(|m| m == field), "{field}: {e}");
            assert!(e.message.contains(field), "{field}: {e}");
        }
    }

    #[test]
    fn a_typo_is_unknown_with_a_suggestion() {
        let mut p = Params::new();
        p.set("toughnes", ParamValue::Int(3));
        let e = crate::systems::gce::RULES
            .build("fire", &p, &Params::new())
            .err()
            .expect("typo");
        assert_eq!(e.kind, ParamErrorKind::Unknown);
        assert_eq!(e.field, "toughnes");
        assert!(e.message.contains("did you mean 'toughness'"), "{e}");
    }
}
