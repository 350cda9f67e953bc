//! The close-combat parameters every close-combat scenario shares: both
//! sides' stat lines and weapons ([`SideParams`]) and the situation (who
//! initiated or charged, fear), read into a [`Fight`]
//! ([`SituationParams`]); and the variants an exchange reads
//! (`counter_roll`, `deflect_break`).

use super::situation::{CcWeapon, CounterRoll, DeflectBreak, Dread, Fight, Fighter};
use crate::systems::Variant;
use crate::systems::krygothic::dice::{critical, seven_plus};
use crate::systems::{FromParam, Given, Opt, ParamDecl, ParamGroup};
use crate::systems::{ParamError, Params};
use std::marker::PhantomData;

const CC: &str = "Chapter 4: Steps for Close Combat";

/// Which side of a close combat a [`SideParams`] group is: its
/// parameters' texts say whose they are.
pub trait Side {
    /// Whose stats: "the attacker", "the defender".
    const WHO: &'static str;
}

/// The attacking side.
#[derive(Clone, Debug)]
pub struct Attacking;

impl Side for Attacking {
    const WHO: &'static str = "the attacker";
}

/// The defending side.
#[derive(Clone, Debug)]
pub struct Defending;

impl Side for Defending {
    const WHO: &'static str = "the defender";
}

/// One side's parameters, a group whose prefix is the side's name
/// (`prefixed("attacker")`): a unit preset named so, the stats
/// `NAME_cc`, ..., the armour save, a close-combat weapon (a preset
/// `NAME_weapon`, or its numbers and effects) and a ranged weapon.
#[derive(Clone, Debug)]
pub struct SideParams<S> {
    cc: i64,
    strength: i64,
    speed: i64,
    body: i64,
    will: i64,
    save: i64,
    /// The weapon preset (or "custom"), if the side has a weapon.
    weapon: Opt<String>,
    weapon_cc: Opt<i64>,
    weapon_str: Opt<i64>,
    /// The weapon's effects, each known given or not: an effect given
    /// without a weapon is an error.
    weapon_armour_piercing: Given<bool>,
    weapon_multiple_wounds: Given<bool>,
    weapon_wrap: Given<bool>,
    weapon_lasso: Given<bool>,
    /// Whether the side carries a ranged weapon.
    pub ranged_weapon: bool,
    side: PhantomData<S>,
}

impl<S: Side> ParamGroup for SideParams<S> {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        let who = S::WHO;
        let stat = |s: &str, what: &str| {
            ParamDecl::int(format!("{prefix}_{s}"), 0, 30)
                .required()
                .about(format!("{who}'s {what}"))
                .seed("Chapter 2: Characteristic Profiles")
        };
        vec![
            ParamDecl::preset(prefix, "unit", &format!("{prefix}_"))
                .about(format!("{who}'s stat line (a unit preset) or custom"))
                .seed("Chapter 2: Characteristic Profiles"),
            stat("cc", "CC"),
            stat("strength", "Strength"),
            stat("speed", "Speed"),
            stat("body", "Body"),
            stat("will", "Willpower"),
            ParamDecl::int(format!("{prefix}_save"), 0, 30)
                .default("0")
                .about(format!("{who}'s armour bonus to Body"))
                .seed("Step 6: Attacker: Roll to wound"),
            ParamDecl::preset(
                format!("{prefix}_weapon"),
                "cc_weapon",
                &format!("{prefix}_weapon_"),
            )
            .about(format!(
                "{who}'s close-combat weapon (a preset) or custom; none when not given"
            ))
            .seed("Close Combat basics"),
            ParamDecl::int(format!("{prefix}_weapon_cc"), -10, 10)
                .about(format!("{who}'s weapon: the number before the / (custom)"))
                .seed("Weapon Statistics (Stats)")
                .needs_any(format!("{prefix}_weapon"), "axe"),
            ParamDecl::int(format!("{prefix}_weapon_str"), -10, 10)
                .about(format!("{who}'s weapon: the number after the / (custom)"))
                .seed("Weapon Statistics (Stats)")
                .needs_any(format!("{prefix}_weapon"), "axe"),
            ParamDecl::flag(format!("{prefix}_weapon_armour_piercing"))
                .about(format!("{who}'s weapon is armour piercing"))
                .seed("Weapon Statistics (Stats)")
                .needs_any(format!("{prefix}_weapon"), "axe"),
            ParamDecl::flag(format!("{prefix}_weapon_multiple_wounds"))
                .about(format!(
                    "{who}'s weapon has Multiple wounds: extra wounds cost no AP"
                ))
                .seed("Weapon effects")
                .needs_any(format!("{prefix}_weapon"), "axe"),
            ParamDecl::flag(format!("{prefix}_weapon_wrap"))
                .about(format!(
                    "{who}'s weapon wraps: its opponent cannot parry it, and it cannot parry"
                ))
                .seed("Weapon effects")
                .needs_any(format!("{prefix}_weapon"), "axe"),
            ParamDecl::flag(format!("{prefix}_weapon_lasso"))
                .about(format!(
                    "{who}'s weapon is a lasso: any wound knocks the victim over"
                ))
                .seed("Weapon effects")
                .needs_any(format!("{prefix}_weapon"), "axe"),
            ParamDecl::flag(format!("{prefix}_ranged_weapon"))
                .about(format!(
                    "{who} carries a ranged weapon (bunt, point blank shot, deflect)"
                ))
                .seed(CC),
        ]
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        fn read<T: FromParam>(p: &Params, prefix: &str, stat: &str) -> Result<T, ParamError> {
            T::from_param(p, &format!("{prefix}_{stat}"))
        }
        Ok(SideParams {
            cc: read(p, prefix, "cc")?,
            strength: read(p, prefix, "strength")?,
            speed: read(p, prefix, "speed")?,
            body: read(p, prefix, "body")?,
            will: read(p, prefix, "will")?,
            save: read(p, prefix, "save")?,
            weapon: Opt::from_param(p, &format!("{prefix}_weapon"))?,
            weapon_cc: read(p, prefix, "weapon_cc")?,
            weapon_str: read(p, prefix, "weapon_str")?,
            weapon_armour_piercing: read(p, prefix, "weapon_armour_piercing")?,
            weapon_multiple_wounds: read(p, prefix, "weapon_multiple_wounds")?,
            weapon_wrap: read(p, prefix, "weapon_wrap")?,
            weapon_lasso: read(p, prefix, "weapon_lasso")?,
            ranged_weapon: read(p, prefix, "ranged_weapon")?,
            side: PhantomData,
        })
    }
}

impl<S> SideParams<S> {
    /// The fighter: its weapon's numbers are needed with a weapon, and
    /// any of its weapon's numbers or effects given without one is an
    /// error naming it.
    fn fighter(&self) -> Result<Fighter, ParamError> {
        let weapon = if self.weapon.value.is_some() {
            Some(CcWeapon {
                cc: self.weapon_cc.need()? as i32,
                strength: self.weapon_str.need()? as i32,
                armour_piercing: self.weapon_armour_piercing.value,
                multiple_wounds: self.weapon_multiple_wounds.value,
                wrap: self.weapon_wrap.value,
                lasso: self.weapon_lasso.value,
            })
        } else {
            let given = [
                ("cc", self.weapon_cc.value.is_some()),
                ("str", self.weapon_str.value.is_some()),
                ("armour_piercing", self.weapon_armour_piercing.given),
                ("multiple_wounds", self.weapon_multiple_wounds.given),
                ("wrap", self.weapon_wrap.given),
                ("lasso", self.weapon_lasso.given),
            ];
            if let Some((s, _)) = given.iter().find(|(_, given)| *given) {
                let wname = self.weapon.name();
                return Err(ParamError::new(
                    format!("{wname}_{s}"),
                    format!("set {wname} (a preset, or custom) to give a weapon"),
                ));
            }
            None
        };
        Ok(Fighter {
            cc: self.cc as i32,
            strength: self.strength as i32,
            speed: self.speed as i32,
            body: self.body as i32,
            save: self.save as i32,
            will: self.will as i32,
            weapon,
            ranged_weapon: self.ranged_weapon,
        })
    }
}

crate::param_struct! {
    /// Both sides and the situation (who initiated or charged, fear).
    pub struct SituationParams {
        attacker: SideParams<Attacking> = prefixed("attacker"),
        defender: SideParams<Defending> = prefixed("defender"),
        initiator: bool = flag()
            .about("the attacker initiated the combat: +1 CC in the first round")
            .seed("Chapter 3: CC attacks - standard"),
        charged: bool = flag()
            .about("the attacker charged: +2 CC in the first round")
            .seed("Chapter 3: CC attacks - charging"),
        defender_charged: bool = flag()
            .about("the defender charged in: -2 Body for this, the opponent's first attack")
            .seed("Chapter 3: CC attacks - charging"),
        attacker_causes: String = choice(&["nothing", "fear", "pure_horror"])
            .default("nothing")
            .about("fear: the defender tests WILL against 6 or its CC is halved for the first attack; pure horror: with WILL halved")
            .seed("Chapter 6: Fear; Pure horror"),
    }
}

impl SituationParams {
    /// The fight these parameters describe, under variants `v`.
    pub fn fight(&self, v: &Params) -> Result<Fight, ParamError> {
        let (reading, critical) = (seven_plus(v)?, critical(v)?);
        if self.initiator && self.charged {
            return Err(ParamError::new(
                crate::param_name!(SituationParams.charged),
                "a charge is the attacker's way of initiating (+2 CC, not +1 and +2): set initiator or charged, not both",
            ));
        }
        Ok(Fight {
            attacker: self.attacker.fighter()?,
            defender: self.defender.fighter()?,
            initiator: self.initiator,
            charged: self.charged,
            defender_charged: self.defender_charged,
            dread: dread_of(&self.attacker_causes),
            reading,
            critical,
            deflect_break: deflect_break(v, self.defender.ranged_weapon)?,
            counter_roll: CounterRoll::Plain,
        })
    }
}

/// What a side causes ("nothing", "fear", "pure_horror").
pub fn dread_of(word: &str) -> Dread {
    match word {
        "fear" => Dread::Fear,
        "pure_horror" => Dread::PureHorror,
        _ => Dread::None,
    }
}

/// The counter-attack variant, read only where a counter attack can be
/// rolled, so only those runs name it.
pub fn counter_roll(v: &Params, can_counter: bool) -> Result<CounterRoll, ParamError> {
    Ok(if can_counter {
        CounterRoll::read(v)?
    } else {
        CounterRoll::Plain
    })
}

/// The deflect variant, read only where the defender could deflect (it
/// has a ranged weapon), so only those runs name it.
pub fn deflect_break(v: &Params, can_deflect: bool) -> Result<DeflectBreak, ParamError> {
    Ok(match DeflectBreak::read(v)? {
        DeflectBreak::Example if can_deflect => DeflectBreak::Example,
        _ => DeflectBreak::OnSix,
    })
}
