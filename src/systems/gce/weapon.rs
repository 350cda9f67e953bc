//! GCE weapon statlines and the presets whose numbers the seed gives.

use super::warrior::{Damage, Hit};
use crate::systems::{Opt, ParamError, PresetDecl};

/// A statline value that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StatError {
    /// Not an Ammo Roll.
    #[error("'{0}' is not an Ammo Roll (2+ to 6+, or \"auto\")")]
    Ammo(String),
}

/// A weapon's Save Modifier: fixed, or "Varies" with the user's Strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveModifier {
    /// A fixed modifier such as the 'Eavy Shoota's -2.
    Fixed(i32),
    /// "Varies": -1 per point of the user's Strength above 3, to -6.
    Varies,
}

impl SaveModifier {
    /// Reads a `save_mod` field: a whole number from -6 to 6, or "varies"
    /// (also "var", as the weapon charts abbreviate it).
    pub fn parse(word: &str) -> Result<Self, ParamError> {
        if word == "varies" || word == "var" {
            return Ok(SaveModifier::Varies);
        }
        word.parse::<i32>()
            .ok()
            .filter(|v| (-6..=6).contains(v))
            .map(SaveModifier::Fixed)
            .ok_or_else(|| {
                ParamError::new(
                    "save_mod",
                    format!("'{word}' is not a save modifier (-6 to 6, or \"varies\")"),
                )
            })
    }
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

impl Ammo {
    /// Parses `4`, `4+` or `auto`.
    pub fn parse(text: &str) -> Result<Self, StatError> {
        let w = text.trim().to_ascii_lowercase();
        if w == "auto" {
            return Ok(Ammo::Auto);
        }
        w.trim_end_matches('+')
            .parse::<u32>()
            .ok()
            .filter(|v| (2..=6).contains(v))
            .map(Ammo::Score)
            .ok_or_else(|| StatError::Ammo(text.to_string()))
    }
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

/// Weapon presets: only what the seed gives; the rest must come from the
/// spec (a missing number is an error, never an invention).
pub const PRESETS: &[PresetDecl] = &[
    PresetDecl {
        catalogue: "weapon",
        name: "shoota",
        sets: &[
            ("short_range", "12"),
            ("long_range", "18"),
            ("short_hit", "1"),
            ("long_hit", "0"),
            ("strength", "3"),
            ("save_mod", "0"),
            ("damage", "1"),
            ("ammo", "4"),
        ],
        source: "Weapon Statlines: \"Shoota | 0” - 12” | 12” - 18” | +1 | - | 3 | 0 | 1 | 4+\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "slugga",
        sets: &[
            ("short_range", "6"),
            ("long_range", "12"),
            ("short_hit", "1"),
            ("long_hit", "0"),
            ("strength", "3"),
            ("save_mod", "0"),
            ("damage", "1"),
            ("ammo", "4"),
        ],
        source: "Pistols in Hand-to-Hand Combat: \"an Ork Slugga has the following statline: | 0” - 6” | 6” - 12” | +1 | - | 3 | 0 | 1 | 4+ | N/A |\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "kannon",
        sets: &[
            ("short_range", "4"),
            ("long_range", "18"),
            ("long_hit", "-1"),
        ],
        source: "Range Modifiers, Examples 1 and 2: \"the Kannon’s long range band (4”-18”) so the Warrior gets a -1 range Modifier\"; its short band's modifier, Strength, save, damage and ammo are not given",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "eavy_shoota",
        sets: &[("save_mod", "-2"), ("sf_dice", "2")],
        source: "\"An ‘Eavy Shoota can use both dice or just one\"; \"an ‘Eavy Shoota has a -2 save Modifier\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "six_shoota",
        sets: &[("sf_dice", "1")],
        source: "\"Wazbag Targets Nazgrab ... with his Six-Shoota. He rolls a single sustained fire dice for it\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "skorcha",
        sets: &[
            ("template", "teardrop"),
            ("ammo_every_shot", "true"),
            ("catch_fire", "4"),
        ],
        source: "Teardrop template weapons: \"skorchas do not require a to Hit roll\"; \"Any Warriors Hit will Catch Fire on a 4+\"; \"Ork Skorchas must take an Ammo Roll after each shot\"",
    },
];

const STATLINES: &str = "Weapon Statlines";

crate::param_struct! {
    /// A weapon's parameters, declared once for every scenario that fires
    /// one. The statline's numbers are read as optional even where they
    /// are required, so that a preset that leaves one out says so
    /// ([`Weapon::from_params`]).
    pub struct WeaponParams {
        weapon: Opt<String> = preset("weapon", "")
            .about("a weapon preset whose numbers the seed gives, or custom")
            .seed(STATLINES),
        short_range: Opt<f64> = real(0.0, 1000.0)
            .about("upper end of the short range band, inches (0 = no short band)")
            .seed(STATLINES),
        long_range: Opt<f64> = real(0.0, 1000.0)
            .about("upper end of the long range band (maximum range), inches; not needed for teardrop templates")
            .seed(STATLINES),
        short_hit: Opt<i64> = int(-6, 6)
            .about("hit modifier in the short band (custom weapons: none when not given)")
            .seed(STATLINES),
        long_hit: Opt<i64> = int(-6, 6)
            .about("hit modifier in the long band (custom weapons: none when not given)")
            .seed(STATLINES),
        strength: Opt<i64> = int(1, 10)
            .required()
            .about("the weapon's Strength")
            .seed(STATLINES),
        save_mod: Opt<String> = text("-1")
            .required()
            .about("save modifier, -6 to 6, or \"varies\" (-1 per point of the user's Strength above 3)")
            .seed(STATLINES),
        damage: Opt<String> = text("1")
            .required()
            .about("Damage per unsaved wound: 1, D3, D6, 2D6, D6+1")
            .seed(STATLINES),
        ammo: Opt<String> = text("4+")
            .required()
            .about("Ammo Roll: 2+ to 6+, or \"auto\"")
            .seed("Ammo Rolls"),
        sf_dice: i64 = int(0, 6)
            .default("0")
            .about("Sustained Fire dice on the profile")
            .seed("Firing on Full Auto"),
        template: String = choice(&["none", "blast", "teardrop"])
            .default("none")
            .about("blast marker or teardrop template")
            .seed("Blast Markers and Templates"),
        ammo_every_shot: bool = flag()
            .about("an Ammo Roll after every shot (Skorchas)")
            .seed("Teardrop template weapons"),
        catch_fire: Opt<i64> = int(0, 6)
            .about("score a hit warrior needs to Catch Fire, 0 for never (teardrops: 4 when not given)")
            .seed("Fire"),
    }
}

fn missing(weapon: &str, field: &str) -> ParamError {
    ParamError::missing(
        field,
        format!(
            "weapon '{weapon}' does not give {field}: set {field} in the spec (the seed gives no value, and krunch invents none)"
        ),
    )
}

impl Weapon {
    /// Builds a weapon from its parameters (the preset's numbers already
    /// filled in where the spec left them out).
    pub fn from_params(p: &WeaponParams) -> Result<Self, ParamError> {
        let name = p.weapon.value.clone().unwrap_or_else(|| "custom".into());
        let template = match p.template.as_str() {
            "blast" => Template::Blast,
            "teardrop" => Template::Teardrop,
            _ => Template::None,
        };
        let needs_range = template != Template::Teardrop;
        let long_range = match p.long_range.value {
            Some(v) => v,
            None if !needs_range => 0.0,
            None => return Err(missing(&name, p.long_range.name())),
        };
        let short_range = p.short_range.value.unwrap_or(0.0);
        if short_range > long_range {
            return Err(ParamError::new(
                p.short_range.name(),
                format!("short range {short_range}\" is beyond the long range {long_range}\""),
            ));
        }
        let hit = |field: &Opt<i64>, band: f64| -> Result<i32, ParamError> {
            match field.value {
                Some(v) => Ok(v as i32),
                // A custom statline with no modifier in a band reads as
                // the seed's "-": none. A preset that leaves it out
                // (the Kannon's short band) must be told.
                None if band <= 0.0 || !needs_range || name == "custom" => Ok(0),
                None => Err(missing(&name, field.name())),
            }
        };
        let short_hit = hit(&p.short_hit, short_range)?;
        let long_hit = hit(&p.long_hit, long_range - short_range)?;
        let strength = p
            .strength
            .value
            .ok_or_else(|| missing(&name, p.strength.name()))? as u8;
        let save_modifier = match &p.save_mod.value {
            Some(w) => SaveModifier::parse(w)?,
            None => return Err(missing(&name, p.save_mod.name())),
        };
        let damage = match &p.damage.value {
            Some(w) => {
                Damage::parse(w).map_err(|m| ParamError::new(p.damage.name(), m.to_string()))?
            }
            None => return Err(missing(&name, p.damage.name())),
        };
        let ammo = match &p.ammo.value {
            Some(w) => Ammo::parse(w).map_err(|m| ParamError::new(p.ammo.name(), m.to_string()))?,
            None => return Err(missing(&name, p.ammo.name())),
        };
        // "A full auto weapon has one or more Sustained Fire Dice on its
        // profile": a profile without them has none.
        let sustained_fire_dice = p.sf_dice as u32;
        let ammo_after_every_shot = p.ammo_every_shot;
        let catch_fire = match p.catch_fire.value {
            Some(0) => None,
            Some(v) => Some(v as u32),
            None => (template == Template::Teardrop).then_some(4),
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

    /// The hit this weapon deals, fired by a user of `user_strength`.
    pub fn hit(&self, user_strength: u8) -> Hit {
        Hit {
            strength: self.strength,
            save_modifier: Some(self.save_modifier_with(user_strength)),
            damage: self.damage,
        }
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
    use crate::systems::{ParamGroup, ParamValue, Params};

    /// A weapon from `name=value` pairs, presets filled in as a spec's are.
    fn weapon(pairs: &[(&str, &str)]) -> Result<Weapon, ParamError> {
        let mut p = Params::new();
        for (k, v) in pairs {
            p.set(*k, ParamValue::from_text(v));
        }
        let decls = WeaponParams::decls();
        let p = super::super::RULES.resolve(&decls, &p)?.bound(decls);
        Weapon::from_params(&WeaponParams::read(&p)?)
    }

    #[test]
    fn kannon_preset_refuses_to_invent_strength() {
        let err = weapon(&[("weapon", "kannon")]).unwrap_err();
        assert_eq!(err.field, "short_hit");
        let err = weapon(&[("weapon", "kannon"), ("short_hit", "0")]).unwrap_err();
        assert_eq!(err.field, "strength");
    }

    #[test]
    fn kannon_range_examples() {
        // Example 1: BS3 Kannon at 12" is in the long band (4"-18"): -1, so 5+.
        let p = [
            ("weapon", "kannon"),
            ("damage", "1"),
            ("ammo", "4"),
            ("save_mod", "0"),
            ("short_hit", "0"),
            ("strength", "5"),
        ];
        let k = weapon(&p).unwrap();
        let m = k.range_modifier(12.0).unwrap();
        assert_eq!(super::super::tables::hit_needed(3, m), 5);
        // Example 2: also firing from a Vehicle that used its Thrusters: -2, so 6+.
        assert_eq!(super::super::tables::hit_needed(3, m - 1), 6);
        assert_eq!(k.range_modifier(18.5), None);
    }
}
