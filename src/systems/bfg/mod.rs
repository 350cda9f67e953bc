//! Battlefleet Gothic advanced rules (`seeds/004_d4c8740a73a9c193.txt`):
//! ramming, boarding actions to the end, hit-and-run attacks, critical hits,
//! disengaging and celestial hazards.

pub mod boarding;
pub mod mechanics;
pub mod tables;

use crate::systems::step_model::StepModel;
use crate::systems::{Model, ParamError, Params, SystemInfo, VariantDef};
use boarding::{Boarding, Side};
use mechanics::{Hazard, HazardKind, HitAndRun, Ram};
use tables::{Critical, ShipType, ram_test_dice};

/// Scenario names.
pub const SCENARIOS: &[&str] = &[
    "ram",
    "boarding",
    "hit_and_run",
    "disengage",
    "asteroid_field",
    "warp_rift",
];

/// Ship presets: only the numbers the seed's examples give.
pub const PRESETS: &[&str] = &["agrippa", "unclean", "hyperion", "plagueclaw"];

#[derive(Default)]
struct Preset {
    kind: Option<ShipType>,
    starting: Option<u32>,
    remaining: Option<u32>,
    armour: Option<u32>,
    front_armour: Option<u32>,
}

fn preset(name: &str) -> Option<Preset> {
    Some(match name {
        // "The Agrippa, a Lunar class cruiser ... had a starting damage
        // capacity of 8 ... the Agrippa (which has armour 6 on the front
        // thanks to its armoured prow)"
        "agrippa" => Preset {
            kind: Some(ShipType::Cruiser),
            starting: Some(8),
            front_armour: Some(6),
            ..Preset::default()
        },
        // "the Unclean, a Murder class Chaos cruiser ... (which has Armour 5)
        // ... (with a starting damage capacity of 8)"
        "unclean" => Preset {
            kind: Some(ShipType::Cruiser),
            starting: Some(8),
            armour: Some(5),
            front_armour: Some(5),
            ..Preset::default()
        },
        // "the Hyperion (remaining damage 3)"
        "hyperion" => Preset {
            remaining: Some(3),
            ..Preset::default()
        },
        // "the Plagueclaw (remaining damage 6)"
        "plagueclaw" => Preset {
            remaining: Some(6),
            ..Preset::default()
        },
        _ => return None,
    })
}

/// One ship's parameters under a prefix (`rammer_`, `target_`, ...).
struct Ship {
    kind: Option<ShipType>,
    starting: Option<u32>,
    remaining: Option<u32>,
    armour: Option<u32>,
    front_armour: Option<u32>,
    name: String,
}

fn ship(p: &Params, prefix: &str) -> Result<Ship, ParamError> {
    let field = |f: &str| format!("{prefix}_{f}");
    let name = p.word(prefix)?.unwrap_or_else(|| "custom".into());
    let base = if name == "custom" {
        Preset::default()
    } else {
        preset(&name).ok_or_else(|| {
            ParamError::new(
                prefix,
                format!(
                    "unknown ship '{name}' (presets: {}, or 'custom')",
                    PRESETS.join(", ")
                ),
            )
        })?
    };
    let kind = match p.word(&field("type"))? {
        Some(t) => Some(ShipType::parse(&t).ok_or_else(|| {
            ParamError::new(
                field("type"),
                format!("unknown ship type '{t}' (escort, cruiser, battleship)"),
            )
        })?),
        None => base.kind,
    };
    let starting = p
        .int(&field("starting_damage"), 1, 100)?
        .map(|v| v as u32)
        .or(base.starting);
    let remaining = p
        .int(&field("damage"), 0, 100)?
        .map(|v| v as u32)
        .or(base.remaining)
        .or(starting);
    if let (Some(s), Some(r)) = (starting, remaining) {
        if r > s {
            return Err(ParamError::new(
                field("damage"),
                format!("{r} damage left is more than the starting {s}"),
            ));
        }
    }
    let armour = p
        .int(&field("armour"), 1, 6)?
        .map(|v| v as u32)
        .or(base.armour);
    let front_armour = p
        .int(&field("front_armour"), 1, 6)?
        .map(|v| v as u32)
        .or(base.front_armour)
        .or(armour);
    Ok(Ship {
        kind,
        starting,
        remaining,
        armour,
        front_armour,
        name,
    })
}

fn need<T>(v: Option<T>, field: &str, ship: &str) -> Result<T, ParamError> {
    v.ok_or_else(|| {
        ParamError::new(
            field,
            format!("ship '{ship}' does not give {field}: set it in the spec (the seed gives no value, and krunch invents none)"),
        )
    })
}

fn required<T>(v: Option<T>, field: &str, what: &str) -> Result<T, ParamError> {
    v.ok_or_else(|| ParamError::new(field, format!("missing: set {field} ({what})")))
}

/// Critical results a ship can suffer: `no_lances`, `no_ordnance` ...
fn applies(p: &Params, prefix: &str) -> Result<[bool; 9], ParamError> {
    let mut a = [true; 9];
    let mut off = |flag: &str, c: Critical| -> Result<(), ParamError> {
        if p.flag(&format!("{prefix}_{flag}"))?.unwrap_or(false) {
            a[c.index()] = false;
        }
        Ok(())
    };
    off("no_lances", Critical::LancesDamaged)?;
    off("no_ordnance", Critical::OrdnanceBaysHit)?;
    off("no_shields", Critical::ShieldsCollapse)?;
    Ok(a)
}

/// What BFG offers.
pub fn info() -> SystemInfo {
    SystemInfo {
        name: "bfg",
        title: "Battlefleet Gothic (advanced rules)",
        scenarios: SCENARIOS,
        presets: PRESETS.iter().map(|s| format!("rammer/target/attacker/defender = \"{s}\"")).collect(),
        variants: VARIANTS,
        metrics: vec![
            ("ram: p_ram_succeeds, mean_damage_dealt/taken, p_target_crippled/destroyed, dealt=k, taken=k".into(), "ramming"),
            ("boarding: p_win/draw/lose, p_hulk, mean_damage_to_defender, p_defender_critical, p_boarderN_critical, mean_end_phases, end_phases=k".into(), "boarding to the end"),
            ("hit_and_run: p_any_critical, mean_extra_damage, p_<critical>, p_escort_destroyed".into(), "hit-and-run"),
            ("disengage: p_disengage; asteroid_field: p_pass, mean_damage; warp_rift: p_navigates, p_lost_forever".into(), "tests"),
        ],
    }
}

/// No rule variants yet.
pub const VARIANTS: &[VariantDef] = &[];

/// Builds a BFG model.
pub fn build(scenario: &str, p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    variants.reject_unused(&[])?;
    let model: Box<dyn Model> = match scenario {
        "ram" => {
            let rammer = ship(p, "rammer")?;
            let target = ship(p, "target")?;
            let rk = need(rammer.kind, "rammer_type", &rammer.name)?;
            let tk = need(target.kind, "target_type", &target.name)?;
            let rs = need(rammer.starting, "rammer_starting_damage", &rammer.name)?;
            let ts = need(target.starting, "target_starting_damage", &target.name)?;
            let head_on = p.flag("head_on")?.unwrap_or(false);
            let defence = p.flag("target_is_defence")?.unwrap_or(false);
            let ram = Ram {
                test_dice: ram_test_dice(rk, tk),
                leadership: required(
                    p.int("rammer_leadership", 1, 12)?,
                    "rammer_leadership",
                    "the rammer's Leadership",
                )? as i32,
                rammer_starting: rs,
                rammer_remaining: need(rammer.remaining, "rammer_damage", &rammer.name)?,
                rammer_front_armour: need(
                    rammer.front_armour,
                    "rammer_front_armour",
                    &rammer.name,
                )?,
                target_armour: if head_on {
                    need(target.front_armour, "target_front_armour", &target.name)?
                } else {
                    need(target.armour, "target_armour", &target.name)?
                },
                target_starting: ts,
                target_remaining: need(target.remaining, "target_damage", &target.name)?,
                // "rolls a number of D6 equal to half its starting damage";
                // full when head on or a defence
                return_dice: if head_on || defence { ts } else { ts / 2 },
            };
            let metrics = ram.metric_defs();
            Box::new(StepModel::new(ram, metrics))
        }
        "boarding" => {
            let count = p
                .int("boarding_ships", 1, boarding::MAX_ATTACKERS as i64)?
                .unwrap_or(1) as usize;
            let mut starting = Vec::new();
            let mut remaining = Vec::new();
            for i in 0..count {
                let prefix = if i == 0 {
                    "attacker".to_string()
                } else {
                    format!("attacker{}", i + 1)
                };
                let s = ship(p, &prefix)?;
                let r = need(s.remaining, &format!("{prefix}_damage"), &s.name)?;
                if r == 0 {
                    return Err(ParamError::new(
                        format!("{prefix}_damage"),
                        "a ship with 0 damage left has a boarding value of zero and cannot board",
                    ));
                }
                remaining.push(r);
                starting.push(s.starting.unwrap_or(r));
            }
            let d = ship(p, "defender")?;
            let dr = need(d.remaining, "defender_damage", &d.name)?;
            let turrets = required(
                p.int("defender_turrets", 0, 20)?,
                "defender_turrets",
                "remaining turrets of the boarded ship",
            )? as u32;
            if dr == 0 {
                return Err(ParamError::new(
                    "defender_damage",
                    "the boarded ship is already at 0 damage (boarding value zero): nothing to board",
                ));
            }
            let race = |field: &str| -> Result<i32, ParamError> {
                Ok(
                    match p
                        .choice(field, &["other", "orks", "chaos", "space_marines"])?
                        .as_deref()
                    {
                        Some("orks") | Some("chaos") => 1,
                        Some("space_marines") => 2,
                        _ => 0,
                    },
                )
            };
            let flag = |f: &str, v: i32| -> Result<i32, ParamError> {
                Ok(if p.flag(f)?.unwrap_or(false) { v } else { 0 })
            };
            let attackers = Side {
                starting,
                remaining,
                turrets: 0,
                fixed_modifier: race("attacker_race")?
                    + flag("defender_has_blast_markers", 1)?
                    + flag("defender_on_special_orders", 1)?,
                escorts: p.flag("attacker_escorts")?.unwrap_or(false),
                applies: applies(p, "attacker")?,
            };
            let defender = Side {
                starting: vec![d.starting.unwrap_or(dr)],
                remaining: vec![dr],
                turrets,
                fixed_modifier: race("defender_race")?
                    + flag("attacker_has_blast_markers", 1)?
                    + flag("attacker_on_special_orders", 1)?,
                escorts: p.flag("defender_escort")?.unwrap_or(false),
                applies: applies(p, "defender")?,
            };
            Box::new(
                Boarding {
                    attackers,
                    defender,
                }
                .into_model(),
            )
        }
        "hit_and_run" => {
            let attack = p
                .choice("attack", &["assault_boat", "boarding_torpedo", "teleport"])?
                .unwrap_or_else(|| "assault_boat".into());
            if attack == "teleport" {
                teleport_allowed(p)?;
            }
            let h = HitAndRun {
                attacks: p.int("attacks", 1, 20)?.unwrap_or(1) as u32,
                bonus: if p.flag("plus_one_fleet")?.unwrap_or(false) {
                    1
                } else {
                    0
                },
                applies: applies(p, "target")?,
                escort: p.flag("target_escort")?.unwrap_or(false),
            };
            let metrics = h.metric_defs();
            Box::new(StepModel::new(h, metrics))
        }
        "disengage" | "asteroid_field" | "warp_rift" => {
            let ld = required(
                p.int("leadership", 1, 12)?,
                "leadership",
                "the ship's Leadership",
            )? as i32;
            let (kind, dice, modifier) = match scenario {
                // "Each Blast marker within 5cm +1, Any celestial phenomena
                // within 15cm +3, Each enemy ship or Ordnance marker -1"
                "disengage" => (
                    HazardKind::Disengage,
                    2,
                    p.int("blast_markers_within_5cm", 0, 20)?.unwrap_or(0) as i32
                        + if p.flag("celestial_phenomena_within_15cm")?.unwrap_or(false) {
                            3
                        } else {
                            0
                        }
                        - p.int("enemy_ships_or_ordnance", 0, 20)?.unwrap_or(0) as i32,
                ),
                "asteroid_field" => {
                    if p.flag("attack_craft")?.unwrap_or(false) {
                        (HazardKind::AttackCraft, 0, 0)
                    } else {
                        (HazardKind::AsteroidField, 2, 0)
                    }
                }
                _ => (HazardKind::WarpRift, 3, 0),
            };
            let h = Hazard {
                kind,
                test_dice: dice,
                leadership: ld + modifier,
                shields: p.int("shields", 0, 10)?.unwrap_or(0) as u32,
            };
            let metrics = h.metric_defs();
            Box::new(StepModel::new(h, metrics))
        }
        other => {
            return Err(ParamError::new(
                "scenario",
                format!(
                    "BFG has no scenario '{other}' (known: {})",
                    SCENARIOS.join(", ")
                ),
            ));
        }
    };
    p.reject_unused(&known_params())?;
    Ok(model)
}

/// Teleport Attacks: "against an enemy ship, that has no shields, within
/// 10cm. Ships on special orders and crippled ships may not make teleport
/// attacks ... escorts and defences with only one damage point left cannot
/// ... a ship can't make a teleport attack against a target with more hits
/// at that point in the battle than it has itself."
fn teleport_allowed(p: &Params) -> Result<(), ParamError> {
    let no =
        |field: &str, why: &str| Err(ParamError::new(field, format!("no teleport attack: {why}")));
    if p.int("target_shields", 0, 10)?.unwrap_or(0) > 0 {
        return no("target_shields", "the target's shields are up");
    }
    if p.real("range_cm", 1000.0)?.unwrap_or(0.0) > 10.0 {
        return no("range_cm", "the target is beyond 10cm");
    }
    if p.flag("attacker_crippled")?.unwrap_or(false) {
        return no(
            "attacker_crippled",
            "crippled ships may not make teleport attacks",
        );
    }
    if p.flag("attacker_on_special_orders")?.unwrap_or(false) {
        return no(
            "attacker_on_special_orders",
            "ships on special orders may not make teleport attacks",
        );
    }
    let mine = required(
        p.int("attacker_damage", 0, 100)?,
        "attacker_damage",
        "the teleporting ship's damage left",
    )?;
    if mine <= 1 && p.flag("attacker_escort_or_defence")?.unwrap_or(false) {
        return no(
            "attacker_damage",
            "escorts and defences with one damage point left cannot teleport",
        );
    }
    let theirs = required(
        p.int("target_damage", 0, 100)?,
        "target_damage",
        "the target's damage left",
    )?;
    if theirs > mine {
        return no(
            "target_damage",
            "the target has more hits left than the teleporting ship",
        );
    }
    Ok(())
}

fn known_params() -> Vec<&'static str> {
    vec![
        "rammer",
        "rammer_type",
        "rammer_starting_damage",
        "rammer_damage",
        "rammer_front_armour",
        "rammer_leadership",
        "target",
        "target_type",
        "target_starting_damage",
        "target_damage",
        "target_armour",
        "target_front_armour",
        "head_on",
        "target_is_defence",
        "boarding_ships",
        "attacker",
        "attacker_damage",
        "attacker_starting_damage",
        "defender",
        "defender_damage",
        "defender_starting_damage",
        "defender_turrets",
        "attacker_race",
        "defender_race",
        "attacker_escorts",
        "defender_escort",
        "attack",
        "attacks",
        "plus_one_fleet",
        "target_escort",
        "leadership",
        "shields",
        "attack_craft",
        "blast_markers_within_5cm",
        "celestial_phenomena_within_15cm",
        "enemy_ships_or_ordnance",
    ]
}
