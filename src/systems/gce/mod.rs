//! Gorkamorka Community Edition (`seeds/002_8c1a109281471897.txt`).

pub mod hazards;
pub mod shooting;
pub mod tables;
pub mod warrior;
pub mod weapon;

use crate::systems::step_model::StepModel;
use crate::systems::{Model, ParamError, Params, SystemInfo, VariantDef};
use shooting::{Coverage, Firer, Shooting, ShootingModel, Target};
use warrior::WarriorStats;
use weapon::{Template, Weapon};

/// Rule variants of GCE.
pub const VARIANTS: &[VariantDef] = &[VariantDef {
    name: "overwatch",
    values: &["current", "original"],
    about: "Overwatch hit modifier: 'current' +1 (v1.4 changelog: \"Buffed Overwatch to give +1 to hit rather than -1\"), 'original' -1",
}];

/// Scenario names.
pub const SCENARIOS: &[&str] = &["shooting", "grenade", "fire", "fall"];

/// Parameters of the shooting scenario besides the weapon's.
pub const SHOOTING_PARAMS: &[&str] = &[
    "bs",
    "user_strength",
    "fire_mode",
    "sf_fired",
    "range",
    "cover",
    "overwatch",
    "appearing_or_charging",
    "firer_vehicle_moved_fast",
    "target_moved_fast",
    "fast_moving_warrior",
    "small_target",
    "large_target",
    "extra_hit_modifier",
    "coverage",
    "toughness",
    "wounds",
    "save",
    "target_ws",
    "target_bs",
    "pin_immune",
    "friend_within_2in",
    "target_initiative",
    "firer_toughness",
    "firer_save",
];

/// What GCE offers.
pub fn info() -> crate::systems::SystemInfo {
    SystemInfo {
        name: "gce",
        title: "Gorkamorka Community Edition",
        scenarios: SCENARIOS,
        presets: weapon::PRESETS
            .iter()
            .map(|s| format!("weapon = \"{s}\""))
            .collect(),
        variants: VARIANTS,
        metrics: shooting::metric_catalog()
            .into_iter()
            .map(|m| (m.name, m.about))
            .chain([
                ("hits=k".to_string(), "P(exactly k hits), k = 0..max shots"),
                (
                    "wounds=k".to_string(),
                    "P(exactly k successful wound rolls)",
                ),
                (
                    "grenade: p_on_target, p_scatters, scatter=d, p_dud, p_unreliable, p_explodes_on_thrower ...".to_string(),
                    "where a thrown grenade ends up",
                ),
                (
                    "fire: p_out_of_action, p_down, p_flesh_wound, p_unhurt, mean_turns, turns=k".to_string(),
                    "a warrior on Fire, until it goes out",
                ),
                (
                    "fall: p_wounded, mean_damage, p_down, p_out_of_action, p_pinned, p_other_hurt".to_string(),
                    "Fall Damage",
                ),
            ])
            .collect(),
    }
}

fn required<T>(v: Option<T>, field: &str, what: &str) -> Result<T, ParamError> {
    v.ok_or_else(|| ParamError::new(field, format!("missing: set {field} ({what})")))
}

/// Builds a GCE model.
pub fn build(scenario: &str, p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    match scenario {
        "shooting" => Ok(Box::new(build_shooting(p, variants)?)),
        "grenade" | "fire" | "fall" => build_hazard(scenario, p, variants),
        _ => Err(ParamError::new(
            "scenario",
            format!(
                "GCE has no scenario '{scenario}' (known: {})",
                SCENARIOS.join(", ")
            ),
        )),
    }
}

/// Builds the shooting model itself (tests reach its two samplers).
pub fn build_shooting(p: &Params, variants: &Params) -> Result<ShootingModel, ParamError> {
    let overwatch_bonus = overwatch_bonus(variants)?;
    let weapon = Weapon::from_params(p)?;
    let bs = required(
        p.int("bs", 0, 10)?,
        "bs",
        "the shooter's Ballistic Skill, 0-10",
    )? as i32;
    let user_strength = p.int("user_strength", 0, 10)?.unwrap_or(3) as u8;
    let full_auto_dice = match p.choice("fire_mode", &["single", "full_auto"])?.as_deref() {
        Some("full_auto") => {
            if weapon.sustained_fire_dice == 0 {
                return Err(ParamError::new(
                    "fire_mode",
                    format!(
                        "weapon '{}' has no Sustained Fire dice, so it cannot fire on full auto",
                        weapon.name
                    ),
                ));
            }
            let fired = p
                .int("sf_fired", 1, 6)?
                .unwrap_or(i64::from(weapon.sustained_fire_dice)) as u32;
            if fired > weapon.sustained_fire_dice {
                return Err(ParamError::new(
                    "sf_fired",
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
        Some(required(
            p.real("range", 1000.0)?,
            "range",
            "inches to the target",
        )?)
    };
    let hit_modifier = situational_hit_modifier(p, overwatch_bonus)?;
    let coverage = match p
        .choice("coverage", &["aimed", "full", "partial"])?
        .as_deref()
    {
        Some("full") => Coverage::Full,
        Some("partial") => Coverage::Partial,
        _ => Coverage::Aimed,
    };
    if coverage != Coverage::Aimed && weapon.template == Template::None {
        return Err(ParamError::new(
            "coverage",
            "coverage applies to blast markers and teardrop templates; this weapon has neither",
        ));
    }
    let target = Target {
        stats: victim(p)?,
        escape_initiative: if p.flag("friend_within_2in")?.unwrap_or(false) {
            Some(required(
                p.int("target_initiative", 1, 10)?,
                "target_initiative",
                "the target's Initiative, for the test to escape Pinning",
            )? as u8)
        } else {
            None
        },
    };
    if target.escape_initiative.is_none() && p.has("target_initiative") {
        return Err(ParamError::new(
            "target_initiative",
            "only used with friend_within_2in = true (no friend near, no escape test)",
        ));
    }
    let firer = match p.int("firer_toughness", 1, 10)? {
        Some(t) => Some(Firer {
            toughness: t as u8,
            save: save_value(p, "firer_save")?,
        }),
        None if p.has("firer_save") => {
            return Err(ParamError::new("firer_save", "set firer_toughness too"));
        }
        None => None,
    };
    let known: Vec<&str> = weapon::WEAPON_PARAMS
        .iter()
        .chain(SHOOTING_PARAMS)
        .copied()
        .collect();
    p.reject_unused(&known)?;
    Ok(ShootingModel::new(Shooting {
        weapon,
        bs,
        user_strength,
        full_auto_dice,
        range,
        hit_modifier,
        coverage,
        target,
        firer,
    }))
}

/// Hit Modifiers (Step 2 – Roll to Hit): cover -1/-2, Overwatch (by rule
/// variant), appearing/charging -1, firing from a fast vehicle -1, target
/// moved fast -1, fast moving warrior -1, small target -1, large target +1,
/// plus any other modifier the spec adds.
fn situational_hit_modifier(p: &Params, overwatch_bonus: i32) -> Result<i32, ParamError> {
    let flag = |name: &str, value: i32| -> Result<i32, ParamError> {
        Ok(if p.flag(name)?.unwrap_or(false) {
            value
        } else {
            0
        })
    };
    let cover = match p.choice("cover", &["none", "partial", "in"])?.as_deref() {
        Some("partial") => -1,
        Some("in") => -2,
        _ => 0,
    };
    Ok(cover
        + flag("overwatch", overwatch_bonus)?
        + flag("appearing_or_charging", -1)?
        + flag("firer_vehicle_moved_fast", -1)?
        + flag("target_moved_fast", -1)?
        + flag("fast_moving_warrior", -1)?
        + flag("small_target", -1)?
        + flag("large_target", 1)?
        + p.int("extra_hit_modifier", -10, 10)?.unwrap_or(0) as i32)
}

/// The Overwatch hit modifier under the chosen rule variant.
fn overwatch_bonus(variants: &Params) -> Result<i32, ParamError> {
    let bonus = match variants.choice("overwatch", VARIANTS[0].values)?.as_deref() {
        Some("original") => -1,
        _ => 1,
    };
    variants.reject_unused(&["overwatch"])?;
    Ok(bonus)
}

fn victim(p: &Params) -> Result<WarriorStats, ParamError> {
    Ok(WarriorStats {
        toughness: required(
            p.int("toughness", 1, 10)?,
            "toughness",
            "the target's Toughness, 1-10",
        )? as u8,
        wounds: required(p.int("wounds", 1, 20)?, "wounds", "the target's Wounds")? as u8,
        save: save_value(p, "save")?,
        ws: required(
            p.int("target_ws", 1, 10)?,
            "target_ws",
            "the target's WS, for Flesh Wounds",
        )? as u8,
        bs: required(
            p.int("target_bs", 1, 10)?,
            "target_bs",
            "the target's BS, for Flesh Wounds",
        )? as u8,
        pin_immune: p.flag("pin_immune")?.unwrap_or(false),
    })
}

/// The grenade, fire and fall scenarios.
fn build_hazard(
    scenario: &str,
    p: &Params,
    variants: &Params,
) -> Result<Box<dyn Model>, ParamError> {
    let model: Box<dyn Model> = match scenario {
        "grenade" => {
            let bonus = overwatch_bonus(variants)?;
            let strength = required(
                p.int("user_strength", 1, 10)?,
                "user_strength",
                "the thrower's Strength, for the throw range",
            )? as u8;
            let range = required(p.real("range", 1000.0)?, "range", "inches to the target")?;
            let ammo = match p.word("ammo")? {
                None => None,
                Some(w) => Some(
                    w.trim_end_matches('+')
                        .parse::<u32>()
                        .ok()
                        .filter(|v| (2..=6).contains(v))
                        .ok_or_else(|| {
                            ParamError::new("ammo", format!("'{w}' is not an Ammo Roll (2+ to 6+)"))
                        })?,
                ),
            };
            let g = hazards::Grenade {
                bs: required(
                    p.int("bs", 0, 10)?,
                    "bs",
                    "the thrower's Ballistic Skill, 0-10",
                )? as i32,
                hit_modifier: situational_hit_modifier(p, bonus)?,
                in_range: range <= f64::from(hazards::throw_range(strength)),
                ammo,
            };
            let metrics = g.metric_defs();
            Box::new(StepModel::new(g, metrics))
        }
        "fire" => {
            overwatch_bonus(variants)?;
            Box::new(
                hazards::Fire {
                    victim: victim(p)?,
                    helpers: p.int("helpers", 0, 5)?.unwrap_or(0) as u32,
                }
                .into_model(),
            )
        }
        _ => {
            overwatch_bonus(variants)?;
            let f = hazards::Fall {
                height: required(p.real("height", 100.0)?, "height", "inches fallen")?,
                victim: victim(p)?,
                lands_on_warrior: p.flag("lands_on_warrior")?.unwrap_or(false),
            };
            let metrics = f.metric_defs();
            Box::new(StepModel::new(f, metrics))
        }
    };
    p.reject_unused(&[
        "bs",
        "user_strength",
        "range",
        "ammo",
        "cover",
        "overwatch",
        "appearing_or_charging",
        "small_target",
        "large_target",
        "extra_hit_modifier",
        "toughness",
        "wounds",
        "save",
        "target_ws",
        "target_bs",
        "pin_immune",
        "helpers",
        "height",
        "lands_on_warrior",
    ])?;
    Ok(model)
}

/// A save as the score needed (2-6), 0 or absent for none.
fn save_value(p: &Params, field: &str) -> Result<Option<u8>, ParamError> {
    match p.int(field, 0, 7)? {
        Some(0) | Some(7) | None => Ok(None),
        Some(1) => Err(ParamError::new(
            field,
            "a 1+ save is impossible: use 2 to 6 (the score needed), or 0 for none",
        )),
        Some(v) => Ok(Some(v as u8)),
    }
}
