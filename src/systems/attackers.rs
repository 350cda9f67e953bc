//! Many attackers at one target (a volley): a scenario declares what each
//! attacker sets (`attacker.bs`, `attacker.weapon`) beside the target's own
//! parameters, and a spec lists its attackers as `[[attacker]]` entries,
//! each a name, a count and those parameters. Below the spec they are plain
//! parameters named `<attacker>.<parameter>` (`boyz.count`, `nob.bs`), so
//! profiles, sweeps, charts and expects address one attacker's value like
//! any other, and `attackers` lists the names in firing order.

use super::decl::{ParamDecl, did_you_mean};
use super::params::Params;
use super::value::ParamError;

/// The parameter listing the attackers' names in the order they are
/// listed (`boyz,nob`): what `[[attacker]]` entries become.
pub const ATTACKERS: &str = "attackers";

/// How a scenario names a parameter each attacker sets: `attacker.bs`.
pub const EACH: &str = "attacker.";

/// Most attackers of one kind (`count`).
pub const MAX_COUNT: i64 = 20;

/// Most kinds of attacker in one volley.
pub const MAX_ATTACKERS: usize = 8;

/// The declarations of a volley scenario: the attackers' list, what each
/// attacker sets (with `count` first) and the target's parameters.
pub fn volley_decls(each: Vec<ParamDecl>, target: Vec<ParamDecl>) -> Vec<ParamDecl> {
    let mut decls = vec![
        ParamDecl::text(ATTACKERS, "boyz,nob")
            .required()
            .about("the attackers' names in the order they fire: one [[attacker]] entry each"),
        ParamDecl::int("count", 1, MAX_COUNT)
            .default("1")
            .about("how many of this attacker fire, one after another"),
    ];
    decls.extend(each);
    let mut decls: Vec<ParamDecl> = decls
        .into_iter()
        .enumerate()
        .map(|(i, d)| if i == 0 { d } else { for_each(d) })
        .collect();
    decls.extend(target);
    decls
}

/// `d` as a parameter each attacker sets: named `attacker.<name>`, and the
/// parameters it is used with named so too.
fn for_each(mut d: ParamDecl) -> ParamDecl {
    d.name = format!("{EACH}{}", d.name);
    for (other, _) in &mut d.needs {
        *other = format!("{EACH}{other}");
    }
    d
}

/// Whether `decls` are a volley's (they declare what each attacker sets).
pub fn is_volley(decls: &[ParamDecl]) -> bool {
    decls.iter().any(|d| d.name.starts_with(EACH))
}

/// The declarations each attacker sets, named as the attacker reads them
/// (`bs`, not `attacker.bs`).
pub fn each_decls(decls: &[ParamDecl]) -> Vec<ParamDecl> {
    decls
        .iter()
        .filter_map(|d| {
            let name = d.name.strip_prefix(EACH)?;
            let mut d = d.clone();
            d.name = name.to_string();
            for (other, _) in &mut d.needs {
                *other = other.trim_start_matches(EACH).to_string();
            }
            Some(d)
        })
        .collect()
}

/// The attackers' names `given` lists (`attackers`), checked: each a
/// plain name, none twice, at most [`MAX_ATTACKERS`].
pub fn names(given: &Params) -> Result<Vec<String>, ParamError> {
    let Some(list) = given.given(ATTACKERS) else {
        return Ok(Vec::new());
    };
    let list = list.to_string();
    let names: Vec<String> = list.split(',').map(|n| n.trim().to_string()).collect();
    if names.len() > MAX_ATTACKERS {
        return Err(ParamError::new(
            ATTACKERS,
            format!(
                "{} attackers: at most {MAX_ATTACKERS} kinds fire in one volley (give a kind a count instead)",
                names.len()
            ),
        ));
    }
    for (i, name) in names.iter().enumerate() {
        check_name(name).map_err(|m| ParamError::new(ATTACKERS, m))?;
        if names[..i].contains(name) {
            return Err(ParamError::new(
                ATTACKERS,
                format!("two attackers are named '{name}': give each its own name"),
            ));
        }
    }
    Ok(names)
}

/// The attackers' names where `decls` are a volley's; none elsewhere
/// (another scenario's `attackers` may be a count).
pub fn names_for(decls: &[ParamDecl], given: &Params) -> Result<Vec<String>, ParamError> {
    if is_volley(decls) {
        names(given)
    } else {
        Ok(Vec::new())
    }
}

/// An attacker's name: it heads parameter names (`boyz.bs`), so it is
/// letters, digits and `_`, starting with a letter.
pub fn check_name(name: &str) -> Result<(), String> {
    // (a profile's `variants` and an entry's `name` are taken)
    if ["variants", "name", "attacker"].contains(&name) {
        return Err(format!(
            "'{name}' is a word specs use already: give the attacker another name"
        ));
    }
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "'{name}' cannot name an attacker: use letters, digits and '_', starting with a letter"
        ))
    }
}

/// The declaration `name` is checked against: its own, or for
/// `<attacker>.<parameter>` the one each attacker sets. An unknown name is
/// an error saying what would be known: a misspelt attacker, a target's
/// parameter given on an attacker, an attacker's given without one.
pub fn decl_of<'a>(
    decls: &'a [ParamDecl],
    attackers: &[String],
    name: &str,
) -> Result<Option<&'a ParamDecl>, ParamError> {
    if let Some(d) = decls
        .iter()
        .find(|d| d.name == name && !name.starts_with(EACH))
    {
        return Ok(Some(d));
    }
    if !is_volley(decls) {
        return Ok(None);
    }
    let each = |p: &str| decls.iter().find(|d| d.name == format!("{EACH}{p}"));
    let Some((who, p)) = name.split_once('.') else {
        return match each(name) {
            Some(_) => Err(ParamError::unknown(
                name,
                format!(
                    "'{name}' is set for each attacker: give it in an [[attacker]] entry (or as <attacker>.{name})"
                ),
            )),
            None => Ok(None),
        };
    };
    if !attackers.iter().any(|a| a == who) {
        let listed = if attackers.is_empty() {
            "no [[attacker]] entries are given".to_string()
        } else {
            format!("attackers: {}", attackers.join(", "))
        };
        return Err(ParamError::unknown(
            name,
            format!(
                "no attacker is named '{who}' ({listed}){}",
                did_you_mean(who, attackers.iter().map(String::as_str))
            ),
        ));
    }
    if let Some(d) = each(p) {
        return Ok(Some(d));
    }
    if decls.iter().any(|d| d.name == p) {
        return Err(ParamError::unknown(
            name,
            format!("'{p}' is the target's, not an attacker's: set it in [base] or a profile"),
        ));
    }
    let known: Vec<&str> = decls
        .iter()
        .filter_map(|d| d.name.strip_prefix(EACH))
        .collect();
    Err(ParamError::unknown(
        name,
        format!(
            "an attacker has no parameter '{p}' (each sets: {}){}",
            known.join(", "),
            did_you_mean(p, known.iter().copied())
        ),
    ))
}

/// One kind of attacker: its name, how many fire, and its parameters read
/// as it reads them (`bs`, with its declared defaults).
#[derive(Clone, Debug)]
pub struct Attacker {
    /// Its name in the spec.
    pub name: String,
    /// How many of it fire.
    pub count: u32,
    /// The target's parameters with this attacker's own over them, named
    /// as one attacker's scenario names them (`bs`, `toughness`).
    pub params: Params,
}

impl Attacker {
    /// `e`, raised reading this attacker's parameters, naming the
    /// parameter as the spec does (`boyz.bs`) where it is the attacker's.
    pub fn owns(&self, mut e: ParamError, decls: &[ParamDecl]) -> ParamError {
        let each = |f: &str| decls.iter().any(|d| d.name == format!("{EACH}{f}"));
        let own = |f: &str| format!("{}.{f}", self.name);
        if each(&e.field) {
            e.message = e.message.replace(
                &format!("set {} ", e.field),
                &format!("set {} ", own(&e.field)),
            );
            e.field = own(&e.field);
        }
        for m in &mut e.missing {
            if each(m) {
                *m = own(m);
            }
        }
        e
    }
}

/// The attackers `p` lists, in order: each the target's values with its
/// own over them, bound to `reads`, the declarations of the one-attacker
/// rule it is read as (GCE's `shooting` for a GCE volley).
pub fn attackers(p: &Params, reads: &[ParamDecl]) -> Result<Vec<Attacker>, ParamError> {
    let names = names(p)?;
    if names.is_empty() {
        return Err(ParamError::missing(
            ATTACKERS,
            "missing: list the attackers, one [[attacker]] entry each (name = \"boyz\", count, and what each sets)",
        ));
    }
    let decls = p.decls().to_vec();
    let mut count_decls = each_decls(&decls);
    count_decls.retain(|d| d.name == "count");
    let reads: std::sync::Arc<[ParamDecl]> = reads.to_vec().into();
    let count_decls: std::sync::Arc<[ParamDecl]> = count_decls.into();
    names
        .into_iter()
        .map(|name| {
            let mut view = Params::new();
            let prefix = format!("{name}.");
            for (k, v) in p.iter() {
                if !k.contains('.') && k != ATTACKERS {
                    view.set(k.clone(), v.clone());
                }
            }
            for (k, v) in p.iter() {
                if let Some(k) = k.strip_prefix(&prefix) {
                    view.set(k, v.clone());
                }
            }
            let mut attacker = Attacker {
                name,
                count: 1,
                params: Params::new(),
            };
            let count = view
                .bound(count_decls.clone())
                .need_int("count")
                .map_err(|e| attacker.owns(e, &decls))?;
            view.remove("count");
            attacker.count = count as u32;
            attacker.params = view.bound(reads.clone());
            Ok(attacker)
        })
        .collect()
}

/// `all` split in two by name: the declarations each attacker sets (those
/// named in `each`, in `all`'s order) and the rest, the target's.
pub fn split(all: Vec<ParamDecl>, each: &[&str]) -> (Vec<ParamDecl>, Vec<ParamDecl>) {
    all.into_iter()
        .partition(|d| each.contains(&d.name.as_str()))
}

/// Records where a turns-to-kill run ended: taken out on turn `k`
/// (counting from 1) counts in `on_turn[k - 1]` and in every `by_turn`
/// from `k` on (the curve); a target never taken out counts in `beyond`,
/// the leftover that lets `turns={k}`'s tails count a survivor.
pub fn record_turn_taken(
    sink: &mut impl crate::dice::MetricSink,
    taken_on: Option<usize>,
    on_turn: &[crate::dice::Metric],
    by_turn: &[crate::dice::Metric],
    beyond: crate::dice::Metric,
) {
    match taken_on {
        Some(k) => {
            sink.record(on_turn[k - 1], 1);
            for by in &by_turn[k - 1..] {
                sink.record(*by, 1);
            }
        }
        None => sink.record(beyond, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamErrorKind;

    fn decls() -> Vec<ParamDecl> {
        volley_decls(
            vec![
                ParamDecl::int("bs", 0, 10)
                    .required()
                    .about("Ballistic Skill"),
                ParamDecl::int("shots", 1, 3).default("1"),
            ],
            vec![ParamDecl::int("toughness", 1, 10).required()],
        )
    }

    fn given(pairs: &[(&str, &str)]) -> Params {
        Params::from_pairs(pairs).bound(decls())
    }

    /// Each attacker reads its own values over the target's and the
    /// declared defaults, in the order listed; errors name the parameter
    /// as the spec does.
    #[test]
    fn attackers_read_their_own_values() {
        let reads = vec![
            ParamDecl::int("bs", 0, 10)
                .required()
                .about("Ballistic Skill"),
            ParamDecl::int("shots", 1, 3).default("1"),
            ParamDecl::int("toughness", 1, 10).required(),
        ];
        let p = given(&[
            ("attackers", "nob, boyz"),
            ("boyz.count", "5"),
            ("boyz.bs", "3"),
            ("nob.bs", "4"),
            ("nob.shots", "2"),
            ("toughness", "4"),
        ]);
        let a = attackers(&p, &reads).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!((a[0].name.as_str(), a[0].count), ("nob", 1));
        assert_eq!((a[1].name.as_str(), a[1].count), ("boyz", 5));
        assert_eq!(a[0].params.need_int("shots").unwrap(), 2);
        assert_eq!(a[1].params.need_int("shots").unwrap(), 1);
        assert_eq!(a[1].params.need_int("bs").unwrap(), 3);
        assert_eq!(a[1].params.need_int("toughness").unwrap(), 4);
        let p = given(&[("attackers", "boyz")]);
        let a = attackers(&p, &reads).unwrap();
        let e = a[0].owns(a[0].params.need_int("bs").unwrap_err(), &decls());
        assert_eq!(e.kind, ParamErrorKind::Missing);
        assert_eq!(e.field, "boyz.bs");
        assert_eq!(e.missing, ["boyz.bs"]);
        assert!(e.message.contains("set boyz.bs"), "{}", e.message);
        let e = a[0].owns(a[0].params.need_int("toughness").unwrap_err(), &decls());
        assert_eq!(e.field, "toughness");
        let p = given(&[("attackers", "boyz"), ("boyz.count", "0")]);
        let e = attackers(&p, &reads).unwrap_err();
        assert_eq!(e.field, "boyz.count");
        assert!(e.message.contains("must be from 1 to 20"), "{}", e.message);
    }

    /// Names are checked: none twice, plain words, not too many.
    #[test]
    fn attacker_names_are_checked() {
        let e = names(&given(&[("attackers", "boyz,nob,boyz")])).unwrap_err();
        assert!(e.message.contains("two attackers are named 'boyz'"), "{e}");
        let e = names(&given(&[("attackers", "big nob")])).unwrap_err();
        assert!(e.message.contains("cannot name an attacker"), "{e}");
        let many = (0..9)
            .map(|i| format!("a{i}"))
            .collect::<Vec<_>>()
            .join(",");
        let e = names(&given(&[("attackers", &many)])).unwrap_err();
        assert!(e.message.contains("at most 8 kinds"), "{e}");
        assert!(attackers(&given(&[]), &[]).is_err());
    }

    /// Every way a name can miss: a misspelt attacker (with a suggestion),
    /// the target's parameter on an attacker, an attacker's parameter
    /// without an attacker, a parameter no attacker has.
    #[test]
    fn unknown_names_say_what_is_known() {
        let d = decls();
        let who = ["boyz".to_string(), "nob".to_string()];
        assert_eq!(
            decl_of(&d, &who, "boyz.bs").unwrap().unwrap().name,
            "attacker.bs"
        );
        assert_eq!(
            decl_of(&d, &who, "toughness").unwrap().unwrap().name,
            "toughness"
        );
        let e = decl_of(&d, &who, "boys.bs").unwrap_err();
        assert!(e.message.contains("did you mean 'boyz'"), "{e}");
        let e = decl_of(&d, &who, "nob.toughness").unwrap_err();
        assert!(e.message.contains("the target's"), "{e}");
        let e = decl_of(&d, &who, "bs").unwrap_err();
        assert!(e.message.contains("[[attacker]]"), "{e}");
        let e = decl_of(&d, &who, "nob.bss").unwrap_err();
        assert!(e.message.contains("did you mean 'bs'"), "{e}");
        assert!(
            decl_of(&d, &who, "attacker.bs")
                .unwrap_err()
                .message
                .contains("no attacker is named 'attacker'")
        );
        assert!(decl_of(&d, &who, "range").unwrap().is_none());
    }
}
