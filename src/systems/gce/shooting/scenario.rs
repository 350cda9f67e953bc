//! The `shooting` scenario: its declaration, parameters ([`ShootingParams`])
//! and builder, beside the rule it builds ([`super::Shooting`]). A child of
//! `shooting.rs` rather than inside it: the rule is 1,200 lines already, and
//! each GCE scenario sits in the folder of its mechanic (as `melee/`'s
//! `hand_to_hand.rs` and `vehicles/params/`'s modules do).
//!
//! `build_shooting`, the entry point that fills presets in for tests and
//! benches, stays in `gce/mod.rs`: it needs the rule set's presets
//! ([`crate::systems::gce::RULES`]), and reaching them from here would
//! close an import cycle with the parent.

use super::{Coverage, Firer, Shooting, ShootingModel, Target};
use crate::systems::gce::target::{
    HitModifiers, TO_HIT, VictimParams, overwatch_bonus, save_value,
};
use crate::systems::gce::weapon::{Template, Weapon, WeaponParams};
use crate::systems::{Opt, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `shooting` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const SHOOTING_SCENARIO: Scenario = Scenario {
    name: "shooting",
    about: "one shooter, one weapon, one target: to hit, wound, save, damage, injury, pinning, ammo",
    seed_section: "Shooting, Steps 1-6; Firing on Full Auto; Ammo Rolls; Blast Markers and Templates",
    params: ShootingParams::decls,
    metrics: super::metric_catalog,
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
        // a target already Down: a hit that wounds rolls on the Injury
        // Table again ("Shooting A Warrior Who Is Down")
        &[
            ("weapon", "shoota"),
            ("bs", "3"),
            ("range", "8"),
            ("toughness", "3"),
            ("wounds", "2"),
            ("save", "5"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("target_starts", "down"),
        ],
        // a flesh-wounded target (WS 1, BS 2 now) under a full burst with
        // D3 Damage: one Wound left, the next Flesh Wound leaves him WS 0
        // BS 1, still on his feet
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
            ("target_ws", "2"),
            ("target_bs", "3"),
            ("target_starts", "flesh_wounded"),
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
        Refusal {
            what: "a WS 1, BS 1 target starting flesh-wounded",
            point: 0,
            set: &[
                ("target_ws", "1"),
                ("target_bs", "1"),
                ("target_starts", "flesh_wounded"),
            ],
            unset: &[],
            field: "target_starts",
            words: &["cannot start flesh-wounded"],
        },
    ],
    naive: crate::systems::gce::naive::SHOOTING,
};

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
        target_starts: String = choice(&["unhurt", "flesh_wounded", "down"])
            .default("unhurt")
            .about("how the target starts: unhurt; on his feet after a Flesh Wound (-1 WS and BS, one Wound left); or Down (no Wounds left, so any further Wound rolls on the Injury Table again)")
            .seed("Injuries"),
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

/// The shooting model from parameters the registry has checked.
pub(in crate::systems::gce) fn shooting_model(
    p: &Params,
    variants: &Params,
) -> Result<ShootingModel, ParamError> {
    Ok(ShootingModel::new(shooting_of(p, variants)?))
}

/// The shooting attack [`ShootingParams`] describe: the one shot of this
/// scenario, and each attacker's of a volley.
pub(in crate::systems::gce) fn shooting_of(
    p: &Params,
    variants: &Params,
) -> Result<Shooting, ParamError> {
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
    let stats = p.victim.stats()?;
    let target = Target {
        starts: target_starts(&p, &stats)?,
        stats,
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
    Ok(Shooting {
        weapon,
        bs: p.bs as i32,
        user_strength: p.user_strength as u8,
        full_auto_dice,
        range,
        hit_modifier,
        coverage,
        target,
        firer,
    })
}

/// The target's condition before the first shot (`target_starts`).
/// Shooting A Warrior Who Is Down: "If a Warrior who is Down suffers
/// additional Wounds then roll on the Injury Table again", so a Down
/// target has no Wounds left. Flesh Wound: "-1 WS and -1 BS for the rest
/// of the game", "treating the Warrior as if they regain a single Wound":
/// one Wound left, and the WS and BS one lower (a shot reads them only for
/// the next Flesh Wound: "so long as both their WS and BS characteristics
/// do not reach 0").
fn target_starts(
    p: &ShootingParams,
    stats: &crate::systems::gce::warrior::WarriorStats,
) -> Result<crate::systems::gce::warrior::Condition, ParamError> {
    let mut starts = stats.fresh();
    match p.target_starts.as_str() {
        "flesh_wounded" => {
            starts.ws = starts.ws.saturating_sub(1);
            starts.bs = starts.bs.saturating_sub(1);
            if starts.ws == 0 && starts.bs == 0 {
                return Err(ParamError::new(
                    crate::param_name!(ShootingParams.target_starts),
                    "a target of WS 1 and BS 1 is Out of Action at his first Flesh Wound (\"so long as both their WS and BS characteristics do not reach 0\"): he cannot start flesh-wounded",
                ));
            }
            starts.wounds_left = 1;
            starts.status = super::Status::FleshWound;
        }
        "down" => {
            starts.wounds_left = 0;
            starts.status = super::Status::Down;
        }
        _ => {}
    }
    Ok(starts)
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
}
