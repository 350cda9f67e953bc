//! The close-combat parameters every close-combat scenario shares: both
//! sides' stat lines and weapons and the situation (who initiated or
//! charged, fear), read into a [`Fight`]; and the variants an exchange
//! reads (`counter_roll`, `deflect_break`).

use super::situation::{CcWeapon, CounterRoll, DeflectBreak, Dread, Fight, Fighter};
use crate::systems::ParamDecl;
use crate::systems::krygothic::{critical, seven_plus};
use crate::systems::{ParamError, Params};

const CC: &str = "Chapter 4: Steps for Close Combat";

fn side_params(prefix: &str, who: &str) -> Vec<ParamDecl> {
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

/// Both sides and the situation (who initiated or charged, fear).
pub fn situation_params() -> Vec<ParamDecl> {
    let mut p = side_params("attacker", "the attacker");
    p.extend(side_params("defender", "the defender"));
    p.extend([
        ParamDecl::flag("initiator")
            .about("the attacker initiated the combat: +1 CC in the first round")
            .seed("Chapter 3: CC attacks - standard"),
        ParamDecl::flag("charged")
            .about("the attacker charged: +2 CC in the first round")
            .seed("Chapter 3: CC attacks - charging"),
        ParamDecl::flag("defender_charged")
            .about("the defender charged in: -2 Body for this, the opponent's first attack")
            .seed("Chapter 3: CC attacks - charging"),
        ParamDecl::choice("attacker_causes", &["nothing", "fear", "pure_horror"])
            .default("nothing")
            .about("fear: the defender tests WILL against 6 or its CC is halved for the first attack; pure horror: with WILL halved")
            .seed("Chapter 6: Fear; Pure horror"),
    ]);
    p
}

fn fighter(p: &Params, prefix: &str) -> Result<Fighter, ParamError> {
    let int =
        |s: &str| -> Result<i32, ParamError> { Ok(p.need_int(&format!("{prefix}_{s}"))? as i32) };
    let wname = format!("{prefix}_weapon");
    let has_weapon = p.word(&wname)?.is_some();
    let weapon = if has_weapon {
        Some(CcWeapon {
            cc: p.need_int(&format!("{wname}_cc"))? as i32,
            strength: p.need_int(&format!("{wname}_str"))? as i32,
            armour_piercing: p.flag(&format!("{wname}_armour_piercing"))?,
            multiple_wounds: p.flag(&format!("{wname}_multiple_wounds"))?,
            wrap: p.flag(&format!("{wname}_wrap"))?,
            lasso: p.flag(&format!("{wname}_lasso"))?,
        })
    } else {
        for s in [
            "cc",
            "str",
            "armour_piercing",
            "multiple_wounds",
            "wrap",
            "lasso",
        ] {
            let n = format!("{wname}_{s}");
            if p.has(&n) {
                return Err(ParamError::new(
                    n,
                    format!("set {wname} (a preset, or custom) to give a weapon"),
                ));
            }
        }
        None
    };
    Ok(Fighter {
        cc: int("cc")?,
        strength: int("strength")?,
        speed: int("speed")?,
        body: int("body")?,
        save: p.need_int(&format!("{prefix}_save"))? as i32,
        will: int("will")?,
        weapon,
        ranged_weapon: p.flag(&format!("{prefix}_ranged_weapon"))?,
    })
}

/// The fight of checked parameters.
pub fn fight_of(p: &Params, v: &Params) -> Result<Fight, ParamError> {
    let (reading, critical) = (seven_plus(v)?, critical(v)?);
    if p.flag("initiator")? && p.flag("charged")? {
        return Err(ParamError::new(
            "charged",
            "a charge is the attacker's way of initiating (+2 CC, not +1 and +2): set initiator or charged, not both",
        ));
    }
    Ok(Fight {
        attacker: fighter(p, "attacker")?,
        defender: fighter(p, "defender")?,
        initiator: p.flag("initiator")?,
        charged: p.flag("charged")?,
        defender_charged: p.flag("defender_charged")?,
        dread: match p.need_word("attacker_causes")?.as_str() {
            "fear" => Dread::Fear,
            "pure_horror" => Dread::PureHorror,
            _ => Dread::None,
        },
        reading,
        critical,
        deflect_break: deflect_break(v, p.flag("defender_ranged_weapon")?)?,
        counter_roll: CounterRoll::Plain,
    })
}

/// The counter-attack variant, read only where a counter attack can be
/// rolled, so only those runs name it.
pub fn counter_roll(v: &Params, can_counter: bool) -> Result<CounterRoll, ParamError> {
    Ok(if can_counter && v.need_word("counter_roll")? == "dodge" {
        CounterRoll::Dodge
    } else {
        CounterRoll::Plain
    })
}

/// The deflect variant, read only where the defender could deflect (it
/// has a ranged weapon), so only those runs name it.
pub fn deflect_break(v: &Params, can_deflect: bool) -> Result<DeflectBreak, ParamError> {
    Ok(match v.word("deflect_break")?.as_deref() {
        Some("example") if can_deflect => DeflectBreak::Example,
        _ => DeflectBreak::OnSix,
    })
}
