//! A warrior's parameters, declared once for both sides of a hand-to-hand
//! scenario (`a_...`, `b_...`) and read into a [`Fighter`], with the seed's
//! named warriors as presets (catalogue `warrior`) and the `second_weapon`
//! rule variant. The vehicle boarding scenarios read their crews the same
//! way.

use super::fighter::{Causes, Fighter, HatredPolicy};
use super::round::MAX_DAMAGE_DICE;
use super::weapons::{Armed, Draws, MeleeStrength, MeleeWeapon, SecondWeapon};
use crate::systems::Variant;
use crate::systems::did_you_mean;
use crate::systems::gce::warrior::Damage;
use crate::systems::gce::warrior::WarriorStats;
use crate::systems::{
    FromParam, Given, Opt, ParamDecl, ParamError, ParamGroup, Params, PresetDecl,
};

pub(super) const SEQUENCE: &str = "Hand-to-Hand Combat, Sequence";
const WEAPONS: &str = "Hand-to-Hand Combat, Close Combat Weapons";
const PSYCHOLOGY: &str = "Special rules, Psychology";

/// Names a weapons list may use.
const WEAPON_NAMES: &[&str] = &[
    "knife",
    "choppa",
    "uge_choppa",
    "slugga",
    "demilune",
    "spear",
    "shoota",
    "kannon",
    "eavy_shoota",
    "six_shoota",
    "skorcha",
    "custom",
];

/// The seed's named warriors (Close Combat Weapons and Step 3 examples):
/// only the numbers the seed gives.
pub const PRESETS: &[PresetDecl] = &[
    PresetDecl {
        catalogue: "warrior",
        name: "grimgutz",
        sets: &[("ws", "3"), ("attacks", "1"), ("weapons", "shoota, choppa")],
        source: "\"Grimgutz has a Shoota and a Choppa. On his profile he has an Attack characteristic of 1\"; \"Grimgutz (Weapon Skill 3)\"",
    },
    PresetDecl {
        catalogue: "warrior",
        name: "krixit",
        sets: &[("ws", "2"), ("attacks", "1"), ("weapons", "choppa")],
        source: "\"Krixit, a rebel grot with his own Choppa and an Attack characteristic of 1\"; \"Krixit (WS 2)\"",
    },
    PresetDecl {
        catalogue: "warrior",
        name: "ibstekia",
        sets: &[
            ("ws", "2"),
            ("attacks", "1"),
            ("weapons", "choppa, slugga, slugga"),
        ],
        source: "\"Ibstekia, a Digga Yoof with two Sluggas and a Choppa ... has an Attacks characteristic of 1\"; \"Ibstekia (WS 2)\"",
    },
    PresetDecl {
        catalogue: "warrior",
        name: "uxolur",
        sets: &[("ws", "3"), ("weapons", "demilune")],
        source: "\"Uxolur, a Mutie Unk with two hands, carries a Demilune ... a double-handed weapon\"; \"Uxolur (WS 3)\"",
    },
];

/// One side's parameters, `prefix` `a_` or `b_`; `psychology` adds Fear,
/// Terror, Stupidity, Hatred and Frenzy.
fn fighter_params(prefix: &str, who: &str, psychology: bool) -> Vec<ParamDecl> {
    const PROFILE: &str = "Characteristics";
    let name = |stat: &str| format!("{prefix}{stat}");
    // what a custom weapon's and Hatred's settings are used with
    let (weapons, strength, damage, hatred) = (
        name("weapons"),
        name("custom_strength"),
        name("custom_damage"),
        name("hatred"),
    );
    // a custom weapon's stat is used with the weapon, which needs its
    // Strength and Damage
    let custom = |d: ParamDecl| {
        let d = d.needs(&weapons, "custom");
        let d = if d.name == strength {
            d
        } else {
            d.needs_any(&strength, "AU+1")
        };
        if d.name == damage {
            d
        } else {
            d.needs_any(&damage, "1")
        }
    };
    let mut p = vec![
        ParamDecl::preset(prefix.trim_end_matches('_'), "warrior", prefix)
            .about(format!("{who}: a warrior preset from the seed's examples, or custom"))
            .seed(WEAPONS),
        ParamDecl::int(name("ws"), 0, 10)
            .required()
            .about(format!("{who}'s Weapon Skill"))
            .seed(PROFILE),
        ParamDecl::int(name("bs"), 0, 10)
            .required()
            .about(format!("{who}'s Ballistic Skill (a Flesh Wound at WS and BS 0 is Out of Action)"))
            .seed("Injuries"),
        ParamDecl::int(name("attacks"), 0, 10)
            .required()
            .about(format!("{who}'s Attacks characteristic"))
            .seed(PROFILE),
        ParamDecl::int(name("initiative"), 1, 10)
            .required()
            .about(format!("{who}'s Initiative (settles drawn rounds)"))
            .seed("Step 4 - Determine Winner"),
        ParamDecl::int(name("strength"), 1, 10)
            .required()
            .about(format!("{who}'s Strength (weapons 'As User')"))
            .seed(PROFILE),
        ParamDecl::int(name("toughness"), 1, 10)
            .required()
            .about(format!("{who}'s Toughness"))
            .seed(PROFILE),
        ParamDecl::int(name("wounds"), 1, 20)
            .required()
            .about(format!("{who}'s Wounds"))
            .seed(PROFILE),
        ParamDecl::int(name("save"), 0, 7)
            .about(format!("{who}'s armour save, the score needed (2-6); 0 or absent for none"))
            .seed("Step 8 - Saving Throw"),
        ParamDecl::text(name("weapons"), "choppa, slugga")
            .default("")
            .about(format!(
                "{who}'s weapons in the order drawn ({}); a free hand holds the Knife; leave out a pistol that is out of ammo",
                WEAPON_NAMES.join(", ")
            ))
            .seed(WEAPONS),
        ParamDecl::int(name("hands"), 1, 4)
            .default("2")
            .about(format!("{who}'s hands (how many close combat weapons it can use)"))
            .seed(WEAPONS),
        custom(ParamDecl::text(name("custom_strength"), "AU+1")
            .about(format!("{who}'s 'custom' weapon: Strength, \"AU+X\" or a number"))
            .seed(WEAPONS)),
        custom(ParamDecl::int(name("custom_save_mod"), -6, 0)
            .about(format!(
                "{who}'s 'custom' weapon: a fixed Save Modifier (absent: by Strength, 'Var')"
            ))
            .seed("Step 8 - Saving Throw")),
        custom(ParamDecl::text(name("custom_damage"), "1")
            .about(format!("{who}'s 'custom' weapon: Damage (1, D3, D6 ...)"))
            .seed("Step 7 - Damage")),
        custom(ParamDecl::flag(name("custom_double_handed"))
            .about(format!("{who}'s 'custom' weapon takes both hands"))
            .seed(WEAPONS)),
        custom(ParamDecl::choice(name("custom_draws"), &["initiative", "spear", "loses"])
            .default("initiative")
            .about(format!(
                "{who}'s 'custom' weapon in draws: Initiative, +1 Initiative (spear), always loses ('Uge Choppa)"
            ))
            .seed("Step 4 - Determine Winner")),
        ParamDecl::flag(name("higher_up"))
            .about(format!("{who} is higher up (+1 for the whole combat)"))
            .seed(SEQUENCE),
        ParamDecl::flag(name("higher_up_first_round"))
            .about(format!(
                "{who} is higher up for the first round only (+1: a Fort's defenders when charged)"
            ))
            .seed("Forts"),
        ParamDecl::int(name("modifier"), -10, 10)
            .default("0")
            .about(format!("any other combat score modifier for {who}, every round"))
            .seed(SEQUENCE),
    ];
    if psychology {
        p.extend([
            ParamDecl::int(name("leadership"), 2, 12)
                .about(format!("{who}'s Leadership (needed when a Fear, Terror or Stupidity test can happen)"))
                .seed(PSYCHOLOGY),
            ParamDecl::choice(name("causes"), &["nothing", "fear", "terror"])
                .default("nothing")
                .about(format!("{who} causes Fear or Terror"))
                .seed(PSYCHOLOGY),
            ParamDecl::flag(name("frenzy"))
                .about(format!("{who} is Frenzied (double Attacks; ignores Fear, Terror, Stupidity and Hatred)"))
                .seed(PSYCHOLOGY),
            ParamDecl::flag(name("stupid"))
                .about(format!("{who} suffers from Stupidity (a Leadership test each turn; failed: 1-3 on a D6, no Attack Dice)"))
                .seed(PSYCHOLOGY),
            ParamDecl::flag(name("hatred"))
                .about(format!("{who} Hates the opponent (re-rolls in the first turn, Leadership 10)"))
                .seed(PSYCHOLOGY),
            ParamDecl::choice(name("hatred_policy"), &["none", "ones", "all_when_behind", "best"])
                .about(format!(
                    "what {who} re-rolls when Hating: nothing, its 1s, every die when behind, or the re-roll that maximises P(winning the round) (default best)"
                ))
                .seed(PSYCHOLOGY)
                .needs(&hatred, "true"),
        ]);
    }
    p
}

/// Whose a warrior's parameters are in a scenario: what their
/// declarations call it, and whether its psychology is declared.
pub trait FighterRole {
    /// The warrior as the declarations name it ("A", "each boarder").
    const WHO: &'static str;
    /// Whether Fear, Terror, Stupidity, Hatred and Frenzy are declared.
    const PSYCHOLOGY: bool;
}

/// One side's parameters, a group under its prefix (`a_`, `b_`,
/// `boarder_` ...): the profile, the weapons, and for a role `R` with
/// psychology its Fear, Terror, Stupidity, Hatred and Frenzy.
#[derive(Clone, Debug)]
pub struct FighterParams<R> {
    prefix: String,
    ws: i64,
    bs: i64,
    attacks: i64,
    initiative: i64,
    strength: i64,
    toughness: i64,
    wounds: i64,
    save: Opt<i64>,
    weapons: String,
    hands: i64,
    custom: CustomWeaponParams,
    higher_up: bool,
    higher_up_first_round: bool,
    modifier: i64,
    psychology: Option<PsychologyParams>,
    role: std::marker::PhantomData<R>,
}

/// A side's 'custom' weapon, read as given: whether each was given is
/// part of the rule (set without a 'custom' weapon is an error).
#[derive(Clone, Debug)]
struct CustomWeaponParams {
    strength: Opt<String>,
    save_mod: Opt<i64>,
    damage: Opt<String>,
    double_handed: Given<bool>,
    draws: Given<String>,
}

/// A side's psychology, declared only where the scenario tests it.
#[derive(Clone, Debug)]
struct PsychologyParams {
    leadership: Opt<i64>,
    causes: String,
    frenzy: bool,
    stupid: bool,
    hatred: bool,
    hatred_policy: Opt<String>,
}

impl<R: FighterRole> ParamGroup for FighterParams<R> {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        fighter_params(prefix, R::WHO, R::PSYCHOLOGY)
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        let name = |stat: &str| format!("{prefix}{stat}");
        let psychology = if R::PSYCHOLOGY {
            Some(PsychologyParams {
                leadership: FromParam::from_param(p, &name("leadership"))?,
                causes: FromParam::from_param(p, &name("causes"))?,
                frenzy: FromParam::from_param(p, &name("frenzy"))?,
                stupid: FromParam::from_param(p, &name("stupid"))?,
                hatred: FromParam::from_param(p, &name("hatred"))?,
                hatred_policy: FromParam::from_param(p, &name("hatred_policy"))?,
            })
        } else {
            None
        };
        Ok(FighterParams {
            prefix: prefix.to_string(),
            ws: FromParam::from_param(p, &name("ws"))?,
            bs: FromParam::from_param(p, &name("bs"))?,
            attacks: FromParam::from_param(p, &name("attacks"))?,
            initiative: FromParam::from_param(p, &name("initiative"))?,
            strength: FromParam::from_param(p, &name("strength"))?,
            toughness: FromParam::from_param(p, &name("toughness"))?,
            wounds: FromParam::from_param(p, &name("wounds"))?,
            save: FromParam::from_param(p, &name("save"))?,
            weapons: FromParam::from_param(p, &name("weapons"))?,
            hands: FromParam::from_param(p, &name("hands"))?,
            custom: CustomWeaponParams {
                strength: FromParam::from_param(p, &name("custom_strength"))?,
                save_mod: FromParam::from_param(p, &name("custom_save_mod"))?,
                damage: FromParam::from_param(p, &name("custom_damage"))?,
                double_handed: FromParam::from_param(p, &name("custom_double_handed"))?,
                draws: FromParam::from_param(p, &name("custom_draws"))?,
            },
            higher_up: FromParam::from_param(p, &name("higher_up"))?,
            higher_up_first_round: FromParam::from_param(p, &name("higher_up_first_round"))?,
            modifier: FromParam::from_param(p, &name("modifier"))?,
            psychology,
            role: std::marker::PhantomData,
        })
    }
}

/// The weapons a side carries, parsed from its list.
fn carried(p: &FighterParams<impl FighterRole>) -> Result<Vec<MeleeWeapon>, ParamError> {
    let field = format!("{}weapons", p.prefix);
    let list = &p.weapons;
    let mut out = Vec::new();
    let mut custom_used = false;
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let key = name.replace(['\'', '‘', '’'], "").replace([' ', '-'], "_");
        if key == "custom" {
            out.push(custom_weapon(&p.custom, &p.prefix)?);
            custom_used = true;
            continue;
        }
        let w = MeleeWeapon::named(&key).ok_or_else(|| {
            ParamError::new(
                field.clone(),
                format!(
                    "unknown weapon '{name}' (known: {}){}",
                    WEAPON_NAMES.join(", "),
                    did_you_mean(&key, WEAPON_NAMES.iter().copied())
                ),
            )
        })?;
        out.push(w);
    }
    if !custom_used {
        let c = &p.custom;
        for (stat, given) in [
            ("custom_strength", c.strength.value.is_some()),
            ("custom_save_mod", c.save_mod.value.is_some()),
            ("custom_damage", c.damage.value.is_some()),
            ("custom_double_handed", c.double_handed.given),
            ("custom_draws", c.draws.given),
        ] {
            if given {
                return Err(ParamError::new(
                    format!("{}{stat}", p.prefix),
                    format!("set, but {field} has no 'custom' weapon to use it"),
                ));
            }
        }
    }
    Ok(out)
}

fn custom_weapon(c: &CustomWeaponParams, prefix: &str) -> Result<MeleeWeapon, ParamError> {
    let f = |s: &str| format!("{prefix}{s}");
    let text = c.strength.need()?;
    let t = text.replace(' ', "").to_ascii_lowercase();
    let strength = if let Some(rest) = t.strip_prefix("au") {
        let bonus =
            if rest.is_empty() {
                0
            } else {
                rest.parse::<i32>().ok().filter(|b| (-5..=7).contains(b)).ok_or_else(|| {
                ParamError::new(
                    f("custom_strength"),
                    format!("'{text}' is not a Strength: write \"AU\", \"AU+1\" or a number 1-10"),
                )
            })?
            };
        MeleeStrength::AsUser(bonus)
    } else {
        let n = t
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=10).contains(n))
            .ok_or_else(|| {
                ParamError::new(
                    f("custom_strength"),
                    format!("'{text}' is not a Strength: write \"AU\", \"AU+1\" or a number 1-10"),
                )
            })?;
        MeleeStrength::Fixed(n)
    };
    let damage = match &c.damage.value {
        None => {
            return Err(ParamError::missing(
                f("custom_damage"),
                "the 'custom' weapon's Damage",
            ));
        }
        Some(d) => {
            Damage::parse(d).map_err(|e| ParamError::new(f("custom_damage"), e.to_string()))?
        }
    };
    if damage.dice_count() > MAX_DAMAGE_DICE {
        return Err(ParamError::new(
            f("custom_damage"),
            format!(
                "at most {MAX_DAMAGE_DICE} Damage dice in hand-to-hand (each strike is evaluated exactly)"
            ),
        ));
    }
    let draws = match c.draws.value.as_str() {
        "spear" => Draws::Spear,
        "loses" => Draws::Loses,
        _ => Draws::Initiative,
    };
    Ok(MeleeWeapon {
        name: "custom".into(),
        strength,
        save_modifier: c.save_mod.value.map(|m| m as i32),
        damage,
        double_handed: c.double_handed.value,
        draws,
        ranged_only: false,
    })
}

/// The `second_weapon` rule variant.
pub(in crate::systems::gce) fn second_weapon(
    variants: &Params,
) -> Result<SecondWeapon, ParamError> {
    SecondWeapon::read(variants)
}

impl<R: FighterRole> FighterParams<R> {
    /// The warrior; under `second`, which weapons it fights with.
    pub(in crate::systems::gce) fn fighter(
        &self,
        second: SecondWeapon,
    ) -> Result<Fighter, ParamError> {
        let f = |s: &str| format!("{}{s}", self.prefix);
        let save = match self.save.value {
            Some(0) | Some(7) | None => None,
            Some(1) => {
                return Err(ParamError::new(
                    f("save"),
                    "a 1+ save is impossible: use 2 to 6 (the score needed), or 0 for none",
                ));
            }
            Some(v) => Some(v as u8),
        };
        let carried = carried(self)?;
        let armed = Armed::declared(&carried, self.hands as u8, second)
            .map_err(|e| ParamError::new(f("weapons"), e.to_string()))?;
        let stats = WarriorStats {
            toughness: self.toughness as u8,
            wounds: self.wounds as u8,
            save,
            ws: self.ws as u8,
            bs: self.bs as u8,
            pin_immune: false,
        };
        let (causes, frenzy, stupid, hatred, leadership) = match &self.psychology {
            Some(psy) => {
                let causes = match psy.causes.as_str() {
                    "fear" => Causes::Fear,
                    "terror" => Causes::Terror,
                    _ => Causes::Nothing,
                };
                let hates = psy.hatred;
                let policy = match psy.hatred_policy.value.as_deref() {
                    Some(_) if !hates => {
                        return Err(ParamError::new(
                            f("hatred_policy"),
                            format!("only used with {} = true", f("hatred")),
                        ));
                    }
                    Some("none") => HatredPolicy::None,
                    Some("ones") => HatredPolicy::Ones,
                    Some("all_when_behind") => HatredPolicy::AllWhenBehind,
                    _ => HatredPolicy::Best,
                };
                (
                    causes,
                    psy.frenzy,
                    psy.stupid,
                    hates.then_some(policy),
                    psy.leadership.value.map(|l| l as u8),
                )
            }
            None => (Causes::Nothing, false, false, None, None),
        };
        let fighter = Fighter {
            stats,
            attacks: self.attacks as u8,
            initiative: self.initiative as u8,
            strength: self.strength as u8,
            leadership,
            armed,
            frenzy,
            stupid,
            hatred,
            causes,
            higher_up: self.higher_up,
            higher_up_first_round: self.higher_up_first_round,
            modifier: self.modifier as i32,
        };
        if fighter.higher_up && fighter.higher_up_first_round {
            return Err(ParamError::new(
                f("higher_up_first_round"),
                format!(
                    "set, but {} is true already (+1 for the whole combat): set one",
                    f("higher_up")
                ),
            ));
        }
        if fighter.attack_dice() == 0 {
            return Err(ParamError::new(
                f("attacks"),
                "0 Attacks and no Specialisation Bonus: the warrior would roll no Attack Dice",
            ));
        }
        Ok(fighter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::gce::tables::SEED;
    use crate::systems::seed_text::{available, seed};

    #[test]
    fn warrior_presets_quote_the_seed_and_carry_its_numbers() {
        if !available(SEED) {
            return;
        }
        let text = seed(SEED);
        for p in PRESETS {
            let quotes: Vec<&str> = p.source.split('"').skip(1).step_by(2).collect();
            assert!(!quotes.is_empty(), "{}", p.name);
            for q in quotes.iter().flat_map(|q| q.split("...")) {
                let q = q.trim();
                assert!(
                    text.contains(q),
                    "{}: the seed does not say \"{q}\"",
                    p.name
                );
            }
            let all = quotes.join(" ");
            let number_after = |words: &[&str]| {
                words.iter().find_map(|w| {
                    all.find(w).map(|i| {
                        all[i + w.len()..]
                            .trim_start()
                            .split([')', ' '])
                            .next()
                            .unwrap()
                            .to_string()
                    })
                })
            };
            let set = |stat: &str| {
                p.sets
                    .iter()
                    .find(|(k, _)| *k == stat)
                    .map(|(_, v)| v.to_string())
            };
            assert_eq!(
                set("ws"),
                number_after(&["Weapon Skill", "WS"]),
                "{} WS",
                p.name
            );
            if let Some(a) = set("attacks") {
                assert_eq!(
                    Some(a),
                    number_after(&["characteristic of"]),
                    "{} Attacks",
                    p.name
                );
            }
        }
    }
}
