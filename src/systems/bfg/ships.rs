//! A ship as the BFG scenarios read it, shared by `ram`, `boarding` and
//! `hit_and_run`: a preset from the seed's examples or its stats
//! ([`ShipParams`], asked for by the ship's role in the scenario), the
//! ship so read ([`Ship`], each stat with the parameter that gives it,
//! so a missing one is named), and the critical results a ship cannot
//! suffer ([`CriticalFlags`]). The roles themselves (the rammer, boarding
//! ship 2, ...) live with their scenarios.

use super::tables::{Critical, ShipType};
use crate::systems::{FromParam, Opt, ParamDecl, ParamError, ParamGroup, Params};

/// Who a ship (or a side) is, as its parameters' descriptions name it.
pub(super) trait Who {
    /// "the rammer", "boarding ship 2", ...
    fn who() -> String;
}

/// A ship's part in a scenario: the stats it asks for and the seed
/// section that asks.
pub(super) trait ShipRole: Who {
    /// The stats asked for, in order (of `type`, `starting_damage`,
    /// `damage`, `armour`, `front_armour`).
    const STATS: &'static [&'static str];
    /// The seed section.
    const SEED: &'static str;
}

/// The declaration of stat `stat` of a ship named `name`.
fn stat_decl(name: &str, stat: &str, who: &str, seed: &'static str) -> ParamDecl {
    let field = format!("{name}_{stat}");
    match stat {
        "type" => ParamDecl::choice(
            field,
            &[
                "escort",
                "cruiser",
                "grand_cruiser",
                "battlecruiser",
                "battleship",
            ],
        )
        .about(format!("{who}'s type (for the ram test dice)")),
        "starting_damage" => {
            ParamDecl::int(field, 1, 100).about(format!("{who}'s starting damage capacity"))
        }
        "damage" => ParamDecl::int(field, 0, 100).about(format!(
            "{who}'s damage left (default: its starting damage)"
        )),
        "armour" => ParamDecl::int(field, 1, 6).about(format!("{who}'s armour")),
        _ => {
            ParamDecl::int(field, 1, 6).about(format!("{who}'s front armour (default: its armour)"))
        }
    }
    .seed(seed)
}

/// One ship's parameters, a group whose prefix is the ship's name
/// (`prefixed("rammer")`): a preset named so, and the stats its role `R`
/// asks for, each named `NAME_stat`. A stat the role does not ask for is
/// `None`, never read.
#[derive(Clone, Debug)]
pub(super) struct ShipParams<R> {
    preset: Opt<String>,
    kind: Option<Opt<String>>,
    starting_damage: Option<Opt<i64>>,
    damage: Option<Opt<i64>>,
    armour: Option<Opt<i64>>,
    front_armour: Option<Opt<i64>>,
    role: std::marker::PhantomData<R>,
}

impl<R: ShipRole> ParamGroup for ShipParams<R> {
    fn decls_with(name: &str) -> Vec<ParamDecl> {
        let who = R::who();
        let mut p = vec![
            ParamDecl::preset(name, "ship", &format!("{name}_"))
                .about(format!(
                    "{who}: a ship preset from the seed's examples, or custom"
                ))
                .seed(R::SEED),
        ];
        p.extend(
            R::STATS
                .iter()
                .map(|stat| stat_decl(name, stat, &who, R::SEED)),
        );
        p
    }

    fn read_with(p: &Params, name: &str) -> Result<Self, ParamError> {
        fn stat<T: FromParam>(
            p: &Params,
            name: &str,
            stat: &str,
            stats: &[&str],
        ) -> Result<Option<T>, ParamError> {
            stats
                .contains(&stat)
                .then(|| T::from_param(p, &format!("{name}_{stat}")))
                .transpose()
        }
        Ok(ShipParams {
            preset: Opt::from_param(p, name)?,
            kind: stat(p, name, "type", R::STATS)?,
            starting_damage: stat(p, name, "starting_damage", R::STATS)?,
            damage: stat(p, name, "damage", R::STATS)?,
            armour: stat(p, name, "armour", R::STATS)?,
            front_armour: stat(p, name, "front_armour", R::STATS)?,
            role: std::marker::PhantomData,
        })
    }
}

/// A ship's stat, if known, and its parameter's name, to say which one
/// a preset left out.
pub(super) struct Stat<T> {
    pub(super) value: Option<T>,
    pub(super) name: String,
}

impl Stat<u32> {
    /// A number stat, if the role asks for it.
    fn of(opt: &Option<Opt<i64>>) -> Stat<u32> {
        Stat {
            value: opt.as_ref().and_then(|o| o.value.map(|v| v as u32)),
            name: opt
                .as_ref()
                .map_or_else(String::new, |o| o.name().to_string()),
        }
    }
}

impl<T: Copy> Stat<T> {
    /// `self`, or else `other` (a default from another stat) under this
    /// stat's name.
    fn or(self, other: &Stat<T>) -> Stat<T> {
        Stat {
            value: self.value.or(other.value),
            name: self.name,
        }
    }

    /// The value, or the error that `ship` does not give it: its preset
    /// lacks it, or no preset was given.
    pub(super) fn need(&self, ship: &Ship) -> Result<T, ParamError> {
        self.value.ok_or_else(|| {
            let message = match ship
                .preset
                .as_deref()
                .filter(|p| !p.eq_ignore_ascii_case("custom"))
            {
                Some(preset) => format!(
                    "ship '{preset}' does not give {}: set it in the spec (the seed gives no value, and krunch invents none)",
                    self.name
                ),
                None => format!(
                    "{} is needed: set it, or {} to a ship preset that gives it",
                    self.name, ship.preset_field
                ),
            };
            ParamError::missing(self.name.clone(), message)
        })
    }
}

/// One ship's stats as read: a preset's, or the spec's own.
pub(super) struct Ship {
    pub(super) kind: Stat<ShipType>,
    pub(super) starting: Stat<u32>,
    pub(super) remaining: Stat<u32>,
    pub(super) armour: Stat<u32>,
    pub(super) front_armour: Stat<u32>,
    /// The preset it was read from, if any.
    preset: Option<String>,
    /// The preset's parameter (`attacker2`).
    preset_field: String,
}

impl<R> ShipParams<R> {
    /// The ship: its remaining damage defaults to its starting damage,
    /// its front armour to its armour; more left than it started with is
    /// an error.
    pub(super) fn ship(&self) -> Result<Ship, ParamError> {
        let preset = self.preset.value.clone();
        let kind = Stat {
            value: self
                .kind
                .as_ref()
                .and_then(|k| k.value.as_deref().and_then(ShipType::parse)),
            name: self
                .kind
                .as_ref()
                .map_or_else(String::new, |k| k.name().to_string()),
        };
        let starting = Stat::of(&self.starting_damage);
        let remaining = Stat::of(&self.damage).or(&starting);
        if let (Some(s), Some(r)) = (starting.value, remaining.value)
            && r > s
        {
            return Err(ParamError::new(
                remaining.name,
                format!("{r} damage left is more than the starting {s}"),
            ));
        }
        let armour = Stat::of(&self.armour);
        let front_armour = Stat::of(&self.front_armour).or(&armour);
        Ok(Ship {
            kind,
            starting,
            remaining,
            armour,
            front_armour,
            preset,
            preset_field: self.preset.name().to_string(),
        })
    }
}

/// The "next highest" flags: critical results a ship cannot suffer, a
/// group whose prefix is the ship's name (`NAME_no_lances`, ...); `W` says
/// whose they are.
#[derive(Clone, Debug)]
pub(super) struct CriticalFlags<W> {
    no_lances: bool,
    no_ordnance: bool,
    no_shields: bool,
    who: std::marker::PhantomData<W>,
}

const CRITICAL_FLAGS: [&str; 3] = ["no_lances", "no_ordnance", "no_shields"];

impl<W: Who> ParamGroup for CriticalFlags<W> {
    fn decls_with(name: &str) -> Vec<ParamDecl> {
        CRITICAL_FLAGS
            .iter()
            .map(|f| {
                ParamDecl::flag(format!("{name}_{f}"))
                    .about(format!(
                        "{} has no {}: that critical becomes the next highest",
                        W::who(),
                        &f[3..]
                    ))
                    .seed("CRITICAL HITS")
            })
            .collect()
    }

    fn read_with(p: &Params, name: &str) -> Result<Self, ParamError> {
        let [no_lances, no_ordnance, no_shields] =
            CRITICAL_FLAGS.map(|f| bool::from_param(p, &format!("{name}_{f}")));
        Ok(CriticalFlags {
            no_lances: no_lances?,
            no_ordnance: no_ordnance?,
            no_shields: no_shields?,
            who: std::marker::PhantomData,
        })
    }
}

impl<W> CriticalFlags<W> {
    /// Critical results the ship can suffer.
    pub(super) fn applies(&self) -> [bool; 9] {
        let mut a = [true; 9];
        for (off, c) in [
            (self.no_lances, Critical::LancesDamaged),
            (self.no_ordnance, Critical::OrdnanceBaysHit),
            (self.no_shields, Critical::ShieldsCollapse),
        ] {
            if off {
                a[c.index()] = false;
            }
        }
        a
    }
}
