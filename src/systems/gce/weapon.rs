//! GCE weapon statlines and the presets whose numbers the seed gives.

use super::tables::d3;
use crate::dice::Roller;
use crate::systems::{ParamError, Params};

/// Damage: "The majority of weapons only inflict one Damage but occasionally
/// something particularly nasty can inflict much more, such as the Krak
/// Stikkbomb’s "D6 Damage"!" (Weapon Statlines, "Damage"). `count` dice of
/// `sides` (3 = D3 read as a halved D6) plus `plus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Damage {
    count: u32,
    sides: u32,
    plus: u32,
}

impl Damage {
    /// Fixed damage.
    pub fn fixed(n: u32) -> Self {
        Damage {
            count: 0,
            sides: 6,
            plus: n,
        }
    }

    /// Parses `1`, `D3`, `D6`, `2D6`, `D6+1`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || format!("'{text}' is not a damage value (examples: 1, D3, D6, 2D6, D6+1)");
        let (dice, plus) = match t.split_once('+') {
            Some((d, p)) => (d.trim(), p.trim().parse::<u32>().map_err(|_| bad())?),
            None => (t.as_str(), 0),
        };
        if let Some((n, s)) = dice.split_once('d') {
            let count = if n.is_empty() {
                1
            } else {
                n.parse().map_err(|_| bad())?
            };
            let sides = s.parse().map_err(|_| bad())?;
            if !(1..=10).contains(&count) || !(sides == 3 || sides == 6) {
                return Err(format!("{}: use 1-10 dice of D3 or D6", bad()));
            }
            Ok(Damage { count, sides, plus })
        } else {
            let n: u32 = dice.parse().map_err(|_| bad())?;
            if n > 20 || plus > 0 {
                return Err(bad());
            }
            Ok(Damage::fixed(n))
        }
    }

    /// The fixed amount, if no dice are rolled.
    pub fn as_fixed(&self) -> Option<u32> {
        (self.count == 0).then_some(self.plus)
    }

    /// Rolls the damage.
    pub fn roll(&self, dice: &mut impl Roller) -> u32 {
        let rolled: u32 = (0..self.count)
            .map(|_| if self.sides == 3 { d3(dice) } else { dice.d6() })
            .sum();
        rolled + self.plus
    }
}

/// A weapon's Save Modifier: fixed, or "Varies" with the user's Strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveModifier {
    /// A fixed modifier such as the 'Eavy Shoota's -2.
    Fixed(i32),
    /// "Varies": -1 per point of the user's Strength above 3, to -6.
    Varies,
}

/// The Ammo Roll value: "roll a D6 ... if you score equal or more than the
/// number indicated then the weapon is fine"; "Auto" fails whenever tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ammo {
    /// Passes on this score or more (2-6).
    Score(u32),
    /// "Weapons with an Ammo Roll value of "Auto" will fail automatically".
    Auto,
}

/// How the weapon delivers its hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// An ordinary shot with a to-hit roll.
    None,
    /// A blast marker placed by a to-hit roll at the aimed-at target.
    Blast,
    /// A teardrop template: "skorchas do not require a to Hit roll".
    Teardrop,
}

/// A complete ranged weapon statline.
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    /// Name for reports.
    pub name: String,
    /// Upper end of the short range band, inches.
    pub short_range: f64,
    /// Upper end of the long range band (maximum range), inches.
    pub long_range: f64,
    /// Hit modifier inside the short band.
    pub short_hit: i32,
    /// Hit modifier inside the long band.
    pub long_hit: i32,
    /// Strength 1-10.
    pub strength: u8,
    /// Save modifier.
    pub save_modifier: SaveModifier,
    /// Damage per unsaved wound.
    pub damage: Damage,
    /// Ammo Roll.
    pub ammo: Ammo,
    /// Sustained Fire dice on the profile (0 = no full auto).
    pub sustained_fire_dice: u32,
    /// Template or blast marker.
    pub template: Template,
    /// "Ork Skorchas must take an Ammo Roll after each shot."
    pub ammo_after_every_shot: bool,
    /// Score a hit warrior needs on a D6 to Catch Fire, if the weapon sets
    /// fire ("Any Warriors Hit will Catch Fire on a 4+" for teardrops).
    pub catch_fire: Option<u32>,
}

/// A preset: only what the seed gives is filled in; the rest must come from
/// the spec.
#[derive(Clone, Debug, Default)]
struct Preset {
    short_range: Option<f64>,
    long_range: Option<f64>,
    short_hit: Option<i32>,
    long_hit: Option<i32>,
    strength: Option<u8>,
    save_modifier: Option<SaveModifier>,
    damage: Option<Damage>,
    ammo: Option<Ammo>,
    sustained_fire_dice: Option<u32>,
    template: Option<Template>,
    ammo_after_every_shot: Option<bool>,
    catch_fire: Option<Option<u32>>,
}

/// Names of the weapon presets.
pub const PRESETS: &[&str] = &[
    "shoota",
    "slugga",
    "kannon",
    "eavy_shoota",
    "six_shoota",
    "skorcha",
];

fn preset(name: &str) -> Option<Preset> {
    let p = match name {
        // Weapon Statlines: "Shoota | 0” - 12” | 12” - 18” | +1 | - | 3 | 0 | 1 | 4+"
        "shoota" => Preset {
            short_range: Some(12.0),
            long_range: Some(18.0),
            short_hit: Some(1),
            long_hit: Some(0),
            strength: Some(3),
            save_modifier: Some(SaveModifier::Fixed(0)),
            damage: Some(Damage::fixed(1)),
            ammo: Some(Ammo::Score(4)),
            sustained_fire_dice: Some(0),
            ..Preset::default()
        },
        // Pistols in Hand-to-Hand Combat: "an Ork Slugga has the following
        // statline: | 0” - 6” | 6” - 12” | +1 | - | 3 | 0 | 1 | 4+ | N/A |"
        "slugga" => Preset {
            short_range: Some(6.0),
            long_range: Some(12.0),
            short_hit: Some(1),
            long_hit: Some(0),
            strength: Some(3),
            save_modifier: Some(SaveModifier::Fixed(0)),
            damage: Some(Damage::fixed(1)),
            ammo: Some(Ammo::Score(4)),
            sustained_fire_dice: Some(0),
            ..Preset::default()
        },
        // Range Modifiers, Examples 1 and 2: "the Kannon’s long range band
        // (4”-18”) so the Warrior gets a -1 range Modifier". The short band's
        // modifier, Strength, save, damage and ammo are not given.
        "kannon" => Preset {
            short_range: Some(4.0),
            long_range: Some(18.0),
            long_hit: Some(-1),
            ..Preset::default()
        },
        // "An ‘Eavy Shoota can use both dice or just one"; "an ‘Eavy Shoota
        // has a -2 save Modifier".
        "eavy_shoota" => Preset {
            save_modifier: Some(SaveModifier::Fixed(-2)),
            sustained_fire_dice: Some(2),
            ..Preset::default()
        },
        // "Wazbag Targets Nazgrab ... with his Six-Shoota. He rolls a single
        // sustained fire dice for it"
        "six_shoota" => Preset {
            sustained_fire_dice: Some(1),
            ..Preset::default()
        },
        // Teardrop template weapons: "skorchas do not require a to Hit roll";
        // "Any Warriors Hit will Catch Fire on a 4+"; "Ork Skorchas must take
        // an Ammo Roll after each shot".
        "skorcha" => Preset {
            template: Some(Template::Teardrop),
            ammo_after_every_shot: Some(true),
            catch_fire: Some(Some(4)),
            sustained_fire_dice: Some(0),
            ..Preset::default()
        },
        _ => return None,
    };
    Some(p)
}

/// Parameter names a weapon reads.
pub const WEAPON_PARAMS: &[&str] = &[
    "weapon",
    "short_range",
    "long_range",
    "short_hit",
    "long_hit",
    "strength",
    "save_mod",
    "damage",
    "ammo",
    "sf_dice",
    "template",
    "ammo_every_shot",
    "catch_fire",
];

fn missing(weapon: &str, field: &str) -> ParamError {
    ParamError::new(
        field,
        format!(
            "weapon '{weapon}' does not give {field}: set {field} in the spec (the seed gives no value, and krunch invents none)"
        ),
    )
}

impl Weapon {
    /// Builds a weapon from `weapon = "preset"` plus any overrides.
    pub fn from_params(p: &Params) -> Result<Self, ParamError> {
        let name = p.word("weapon")?.unwrap_or_else(|| "custom".into());
        let base = if name == "custom" {
            Preset::default()
        } else {
            preset(&name).ok_or_else(|| {
                ParamError::new(
                    "weapon",
                    format!(
                        "unknown weapon '{name}' (presets: {}, or 'custom')",
                        PRESETS.join(", ")
                    ),
                )
            })?
        };
        let template = match p
            .choice("template", &["none", "blast", "teardrop"])?
            .as_deref()
        {
            Some("blast") => Template::Blast,
            Some("teardrop") => Template::Teardrop,
            Some(_) => Template::None,
            None => base.template.unwrap_or(Template::None),
        };
        let needs_range = template != Template::Teardrop;
        let long_range = match p.real("long_range", 1000.0)?.or(base.long_range) {
            Some(v) => v,
            None if !needs_range => 0.0,
            None => return Err(missing(&name, "long_range")),
        };
        let short_range = p
            .real("short_range", 1000.0)?
            .or(base.short_range)
            .unwrap_or(0.0);
        if short_range > long_range {
            return Err(ParamError::new(
                "short_range",
                format!("short range {short_range}\" is beyond the long range {long_range}\""),
            ));
        }
        let hit = |field: &str, preset: Option<i32>, band: f64| -> Result<i32, ParamError> {
            match p.int(field, -6, 6)? {
                Some(v) => Ok(v as i32),
                None => match preset {
                    Some(v) => Ok(v),
                    // A custom statline with no modifier in a band reads as
                    // the seed's "-": none. A preset that leaves it out
                    // (the Kannon's short band) must be told.
                    None if band <= 0.0 || !needs_range || name == "custom" => Ok(0),
                    None => Err(missing(&name, field)),
                },
            }
        };
        let short_hit = hit("short_hit", base.short_hit, short_range)?;
        let long_hit = hit("long_hit", base.long_hit, long_range - short_range)?;
        let strength = match p.int("strength", 1, 10)? {
            Some(v) => v as u8,
            None => base.strength.ok_or_else(|| missing(&name, "strength"))?,
        };
        let save_modifier = match p.word("save_mod")? {
            Some(w) if w == "varies" || w == "var" => SaveModifier::Varies,
            Some(w) => SaveModifier::Fixed(
                w.parse::<i32>()
                    .ok()
                    .filter(|v| (-6..=6).contains(v))
                    .ok_or_else(|| {
                        ParamError::new(
                            "save_mod",
                            format!("'{w}' is not a save modifier (-6 to 6, or \"varies\")"),
                        )
                    })?,
            ),
            None => base
                .save_modifier
                .ok_or_else(|| missing(&name, "save_mod"))?,
        };
        let damage = match p.word("damage")? {
            Some(w) => Damage::parse(&w).map_err(|m| ParamError::new("damage", m))?,
            None => base.damage.ok_or_else(|| missing(&name, "damage"))?,
        };
        let ammo = match p.word("ammo")? {
            Some(w) if w == "auto" => Ammo::Auto,
            Some(w) => {
                let v = w
                    .trim_end_matches('+')
                    .parse::<u32>()
                    .ok()
                    .filter(|v| (2..=6).contains(v));
                Ammo::Score(v.ok_or_else(|| {
                    ParamError::new(
                        "ammo",
                        format!("'{w}' is not an Ammo Roll (2+ to 6+, or \"auto\")"),
                    )
                })?)
            }
            None => base.ammo.ok_or_else(|| missing(&name, "ammo"))?,
        };
        let sustained_fire_dice = match p.int("sf_dice", 0, 6)? {
            Some(v) => v as u32,
            // "A full auto weapon has one or more Sustained Fire Dice on its
            // profile": a profile without them has none.
            None => base.sustained_fire_dice.unwrap_or(0),
        };
        let ammo_after_every_shot = p
            .flag("ammo_every_shot")?
            .or(base.ammo_after_every_shot)
            .unwrap_or(false);
        let catch_fire = match p.int("catch_fire", 0, 6)? {
            Some(0) => None,
            Some(v) => Some(v as u32),
            None => base
                .catch_fire
                .unwrap_or(if template == Template::Teardrop {
                    Some(4)
                } else {
                    None
                }),
        };
        Ok(Weapon {
            name,
            short_range,
            long_range,
            short_hit,
            long_hit,
            strength,
            save_modifier,
            damage,
            ammo,
            sustained_fire_dice,
            template,
            ammo_after_every_shot,
            catch_fire,
        })
    }

    /// The hit modifier at `range` inches, or `None` when out of range.
    pub fn range_modifier(&self, range: f64) -> Option<i32> {
        if range <= self.short_range && self.short_range > 0.0 {
            Some(self.short_hit)
        } else if range <= self.long_range {
            Some(self.long_hit)
        } else {
            None
        }
    }

    /// The save modifier against a target, given the firer's Strength.
    pub fn save_modifier_with(&self, user_strength: u8) -> i32 {
        match self.save_modifier {
            SaveModifier::Fixed(m) => m,
            SaveModifier::Varies => super::tables::save_modifier_for_strength(user_strength),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamValue;

    #[test]
    fn damage_parses_dice_and_rejects_junk() {
        assert_eq!(Damage::parse("D6").unwrap().as_fixed(), None);
        assert_eq!(Damage::parse("2").unwrap().as_fixed(), Some(2));
        assert!(Damage::parse("d7").is_err());
        assert!(Damage::parse("banana").is_err());
    }

    #[test]
    fn kannon_preset_refuses_to_invent_strength() {
        let mut p = Params::new();
        p.set("weapon", ParamValue::Str("kannon".into()));
        let err = Weapon::from_params(&p).unwrap_err();
        assert_eq!(err.field, "short_hit");
        p.set("short_hit", ParamValue::Int(0));
        assert_eq!(Weapon::from_params(&p).unwrap_err().field, "strength");
    }

    #[test]
    fn kannon_range_examples() {
        // Example 1: BS3 Kannon at 12" is in the long band (4"-18"): -1, so 5+.
        let mut p = Params::new();
        for (k, v) in [
            ("weapon", "kannon"),
            ("damage", "1"),
            ("ammo", "4"),
            ("save_mod", "0"),
        ] {
            p.set(k, ParamValue::Str(v.into()));
        }
        p.set("short_hit", ParamValue::Int(0));
        p.set("strength", ParamValue::Int(5));
        let k = Weapon::from_params(&p).unwrap();
        let m = k.range_modifier(12.0).unwrap();
        assert_eq!(super::super::tables::hit_needed(3, m), 5);
        // Example 2: also firing from a Vehicle that used its Thrusters: -2, so 6+.
        assert_eq!(super::super::tables::hit_needed(3, m - 1), 6);
        assert_eq!(k.range_modifier(18.5), None);
    }
}
