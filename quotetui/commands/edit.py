"""``quotetui provider add|edit``, ``offer add|edit``, ``round add|edit``, ``discount add``, ``extra add|edit|remove``,
``sla set``: what the TUI's forms record, from the command line.

Each command is its TUI form (``services/editing.py``): its options are the form's fields
(``commands/form_options.py``); ``add`` starts from the values the form starts with, ``edit`` from the row's
current values, and the options given replace those values only. The service validates and saves, with the
version that was read, so a row changed meanwhile is refused as in the TUI and nothing is saved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quotetui.commands.common import JsonFlag, id_arg, open_db, print_json
from quotetui.commands.form_options import Summary, form_command, overlay, refused, saved, starting
from quotetui.commands.output import say
from quotetui.domain import entities as E
from quotetui.domain.enums import Mover
from quotetui.domain.errors import FieldErrors
from quotetui.domain.fields import Field
from quotetui.language import N_, NP_, _
from quotetui.services import form_defaults as starts

if TYPE_CHECKING:
    from quotetui.services.form_spec import FormSpec

provider_app = typer.Typer(help="Add or edit a provider (`quotetui providers` lists them).", no_args_is_help=True)
offer_app = typer.Typer(help="Add or edit an offer (`quotetui offers` ranks them).", no_args_is_help=True)
round_app = typer.Typer(
    help="Negotiation rounds of an offer: a new price, or a recorded one corrected.", no_args_is_help=True
)
discount_app = typer.Typer(help="Discounts of an offer.", no_args_is_help=True)
extra_app = typer.Typer(help="Extra costs of an offer (egress, storage, fees, deposits).", no_args_is_help=True)
sla_app = typer.Typer(help="The SLA of an offer.", no_args_is_help=True)

OFFER_ARG = ("OFFER_ID", "The offer's id (see `quotetui offers`).")
EXTRA_ID_HELP = "The extra cost's id (as `quotetui extra add` printed it, or `quotetui db check` names it)."
KEEP = "Only the options given change; the others keep their current values."
START = "Options not given take the values the TUI's form starts with."
ALL_OR_NOTHING = "Nothing is saved if any value is invalid: every bad option is named."
PROVIDER_SUMMARY: Summary = (("name", N_("name")), ("kind", N_("kind")))
OFFER_SUMMARY: Summary = (
    ("provider", N_("provider")),
    ("name", N_("name")),
    ("gpus_per_node", N_("gpus per node")),
    ("gpu", N_("gpu")),
    ("status", N_("status")),
)
PRICE_SUMMARY: Summary = (
    ("amount", N_("amount")),
    ("amount_high", N_("amount high")),
    ("currency", N_("currency")),
    ("unit", N_("unit")),
    ("term_months", N_("term months")),
    ("prepay", N_("prepay")),
)
ROUND_SUMMARY: Summary = (("mover", N_("mover")), ("quoted_at", N_("quoted at")), *PRICE_SUMMARY)
DISCOUNT_SUMMARY: Summary = (
    ("kind", N_("kind")),
    ("rate", NP_("discount", "rate")),
    ("min_term_months", N_("min term months")),
    ("min_gpus", N_("min gpus")),
    ("requires_prepay", N_("requires prepay")),
)
EXTRA_SUMMARY: Summary = (
    ("kind", N_("kind")),
    ("basis", N_("basis")),
    ("amount", N_("amount")),
    ("currency", N_("currency")),
    ("refundable", N_("refundable")),
)
SLA_SUMMARY: Summary = (
    ("availability", N_("availability")),
    ("credits", N_("credits")),
    ("response_minutes", N_("response minutes")),
    ("replacement_hours", N_("replacement hours")),
    ("preemption", N_("preemption")),
)


@contextmanager
def _where_providers_are() -> Iterator[None]:
    """A provider name that names none says where the names are, and how to add one (the TUI's form
    offers them to pick from)."""
    from quotetui.services.editing import NoProvider

    try:
        yield
    except FieldErrors as exc:
        if isinstance(exc.errors.get("provider"), NoProvider):
            hint = _("{problem} (`quotetui providers` lists them; `quotetui provider add` adds one)")
            raise FieldErrors(exc.errors | {"provider": hint.format(problem=exc.errors["provider"])}) from None
        raise


def _db(ctx: typer.Context) -> Any:
    return open_db(ctx, load_demo_if_new=False)  # a record added to a new database is not mixed with the demo


def _add(
    given: dict[str, Any],
    as_json: bool,
    added: str,
    fields: tuple[Field, ...],
    start: Callable[[], FormSpec],
    save: Callable[[dict[str, Any]], int],
    form: Callable[[int], FormSpec],
    summary: Summary,
    offer_id: int | None = None,
) -> None:
    """A new row: the form's starting values with the options given over them, saved by the form's service;
    then what was saved, read back (to an offer, when it belongs to one). ``added``: what is said of it, an
    English message id (marked ``N_``) with the row's ``{id}`` and its ``{offer}``."""
    with refused(fields):
        row_id = save(overlay(start().values, given))
    after = form(row_id)
    head = _(added).format(id=row_id, offer=offer_id)
    extra = {"offer_id": offer_id} if offer_id is not None else None
    saved(head, row_id, after.fields, after.values, summary, as_json, extra=extra)


def _change(
    given: dict[str, Any],
    as_json: bool,
    said: tuple[str, str],
    row_id: int,
    form: Callable[[], FormSpec],
    save: Callable[[dict[str, Any], int | None], object],
    summary: Summary,
    *,
    key: str = "id",
) -> None:
    """A recorded row: its current values with the options given over them, saved with the version read (a
    row changed meanwhile is refused); then what it holds now. ``said``: what is said of it when it changed
    and when nothing did, English message ids (marked ``N_``) with the row's ``{id}``."""
    spec = form()
    with refused(spec.fields), _where_providers_are():
        save(overlay(spec.values, given), spec.version)
    after = form()
    changed, unchanged = said
    head = unchanged if _same(spec, after) else changed  # every value as it was: say so, rather than "Updated"
    saved(_(head).format(id=row_id), row_id, after.fields, after.values, summary, as_json, key=key)


def _same(before: FormSpec, after: FormSpec) -> bool:
    """Whether a recorded row's form shows the same values after the save as before it (an SLA set on an
    offer that had none is a change, though its fields may all be empty)."""
    return before.version is not None and all(
        before.values.get(f.name, "") == after.values.get(f.name, "") for f in after.fields
    )


# -- providers ---------------------------------------------------------------------------------------------
def _provider_add(ctx: typer.Context, _no_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    db = _db(ctx)
    _add(given, as_json, N_("Added provider #{id}"), E.PROVIDER.form_fields, lambda: editing.provider_form(db),
         lambda values: editing.save_provider(db, values), lambda row: editing.provider_form(db, row),
         PROVIDER_SUMMARY)  # fmt: skip


def _provider_edit(ctx: typer.Context, row_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    assert row_id is not None
    db = _db(ctx)
    _change(given, as_json, (N_("Updated provider #{id}"), N_("Nothing changed: provider #{id}")), row_id,
            lambda: editing.provider_form(db, row_id),
            lambda values, version: editing.save_provider(db, values, row_id, version), PROVIDER_SUMMARY)  # fmt: skip


provider_app.command("add")(
    form_command(
        E.PROVIDER.form_fields,
        _provider_add,
        doc=f"Add a provider. {START} {ALL_OR_NOTHING}",
        defaults=starting(E.PROVIDER.form_fields, starts.NEW_PROVIDER_VALUES),
    )
)
provider_app.command("edit")(
    form_command(
        E.PROVIDER.form_fields,
        _provider_edit,
        doc=f"Change a provider. {KEEP} {ALL_OR_NOTHING}",
        argument=("PROVIDER_ID", "The provider's id (see `quotetui providers`)."),
    )
)


# -- offers ------------------------------------------------------------------------------------------------
def _offer_add(ctx: typer.Context, _no_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing
    from quotetui.services.offer_detail import load_offer_detail

    db = _db(ctx)
    with refused(E.NEW_OFFER.form_fields), _where_providers_are():
        row_id = editing.save_offer(db, overlay(editing.offer_form(db).values, given))
    after = editing.offer_form(db, row_id)
    first = load_offer_detail(db, row_id).rounds[0].revision.id
    assert first is not None
    price = editing.revision_edit_form(db, first).values
    values = after.values | {f.name: price.get(f.name, "") for f in E.PRICE.fields}
    fields = (*after.fields, *E.PRICE.fields)
    summary = (*OFFER_SUMMARY, *PRICE_SUMMARY)
    head = _("Added offer #{id}").format(id=row_id)
    saved(head, row_id, fields, values, summary, as_json, extra={"round_id": first})


def _offer_edit(ctx: typer.Context, row_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    assert row_id is not None
    db = _db(ctx)
    _change(given, as_json, (N_("Updated offer #{id}"), N_("Nothing changed: offer #{id}")), row_id,
            lambda: editing.offer_form(db, row_id),
            lambda values, version: editing.save_offer(db, values, row_id, version), OFFER_SUMMARY)  # fmt: skip
    from quotetui.commands.output import say

    for line in editing.contracts_kept(db, row_id):  # on stderr: a script's JSON stays as it is
        say(_("note: {note}").format(note=line), err=True)


offer_app.command("add")(
    form_command(
        E.NEW_OFFER.form_fields,
        _offer_add,
        doc=f"Add an offer and its first round (the provider's quote). {START} {ALL_OR_NOTHING}",
        defaults=starting(E.NEW_OFFER.form_fields, starts.NEW_OFFER_VALUES),
    )
)
offer_app.command("edit")(
    form_command(
        E.OFFER.form_fields,
        _offer_edit,
        doc=f"Change an offer (its prices are its rounds: `quotetui round`). {KEEP} {ALL_OR_NOTHING}",
        argument=("OFFER_ID", "The offer's id (see `quotetui offers`)."),
    )
)


# -- negotiation rounds ------------------------------------------------------------------------------------
def _round_add(ctx: typer.Context, offer_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.domain.errors import QuotetuiError
    from quotetui.services import editing

    assert offer_id is not None
    try:
        mover = Mover.parse(given.get("mover", Mover.PROVIDER))
    except QuotetuiError:  # the service names the bad value with the others
        mover = Mover.PROVIDER
    db = _db(ctx)
    spec = editing.revision_form(db, offer_id, mover)
    with refused(spec.fields):
        row_id = editing.save_revision(db, offer_id, overlay(spec.values, given))
    after = editing.revision_edit_form(db, row_id)
    head = _("Added round {seq} to offer #{offer} (its id for `quotetui round edit`: {id})").format(
        seq=editing.round_number(db, row_id), offer=offer_id, id=row_id
    )
    saved(head, row_id, after.fields, after.values, ROUND_SUMMARY, as_json, extra={"offer_id": offer_id})


def _round_edit(ctx: typer.Context, row_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    assert row_id is not None
    db = _db(ctx)
    _change(given, as_json, (N_("Updated round #{id}"), N_("Nothing changed: round #{id}")), row_id,
            lambda: editing.revision_edit_form(db, row_id),
            lambda values, version: editing.update_revision(db, row_id, values, version), ROUND_SUMMARY)  # fmt: skip


round_app.command("add")(
    form_command(
        E.ROUND.form_fields,
        _round_add,
        doc="Record a new round of an offer: the provider's new price (or --mover counter for ours). It starts "
        f"from the latest round's price, stamped now: give what moved. {ALL_OR_NOTHING}",
        argument=OFFER_ARG,
        defaults={"mover": Mover.PROVIDER.named, "quoted_at": "now"}
        | {f.name: "the latest round's" for f in E.PRICE.fields if f is not E.AMOUNT_HIGH},
    )
)
round_app.command("edit")(
    form_command(
        E.ROUND.form_fields,
        _round_edit,
        doc=f"Correct a recorded round and its headline price (the shortest term). {KEEP} {ALL_OR_NOTHING}",
        argument=("ROUND_ID", "The round's id (as `quotetui round add` printed it)."),
    )
)


# -- discounts, extra costs, SLA ---------------------------------------------------------------------------
def _discount_add(ctx: typer.Context, offer_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    assert offer_id is not None
    db = _db(ctx)
    _add(given, as_json, N_("Added discount #{id} to offer #{offer}"), E.DISCOUNT.form_fields,
         lambda: editing.discount_form(db), lambda values: editing.save_discount(db, offer_id, values),
         lambda row: editing.discount_form(db, row), DISCOUNT_SUMMARY, offer_id)  # fmt: skip


def _extra_add(ctx: typer.Context, offer_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    assert offer_id is not None
    db = _db(ctx)
    _add(given, as_json, N_("Added extra cost #{id} to offer #{offer}"), E.EXTRA.form_fields,
         lambda: editing.extra_form(db), lambda values: editing.save_extra(db, offer_id, values),
         lambda row: editing.extra_form(db, row), EXTRA_SUMMARY, offer_id)  # fmt: skip


def _extra_edit(ctx: typer.Context, row_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    assert row_id is not None
    db = _db(ctx)
    offer_id = editing.fine_print_offer(db, E.EXTRA, row_id)
    said = (N_("Updated extra cost #{id}"), N_("Nothing changed: extra cost #{id}"))
    _change(
        given,
        as_json,
        said,
        row_id,
        lambda: editing.extra_form(db, row_id),
        lambda values, version: editing.save_extra(db, offer_id, values, row_id, version),
        EXTRA_SUMMARY,
    )


def extra_remove(
    ctx: typer.Context,
    extra_id: Annotated[int, id_arg("EXTRA_ID", EXTRA_ID_HELP)],
    as_json: JsonFlag = False,
) -> None:
    """Remove an extra cost from its offer (the history keeps what it was)."""
    from quotetui.services import editing

    db = _db(ctx)
    offer_id = editing.fine_print_offer(db, E.EXTRA, extra_id)
    editing.delete_fine_print(db, E.EXTRA, extra_id)
    if as_json:
        print_json({"id": extra_id, "offer_id": offer_id, "removed": True})
    else:
        say(_("Removed extra cost #{id} of offer #{offer}.").format(id=extra_id, offer=offer_id))


def _sla_set(ctx: typer.Context, offer_id: int | None, given: dict[str, Any], as_json: bool) -> None:
    from quotetui.services import editing

    assert offer_id is not None
    db = _db(ctx)
    _change(given, as_json, (N_("Set SLA of offer #{id}"), N_("Nothing changed: SLA of offer #{id}")), offer_id,
            lambda: editing.sla_form(db, offer_id),
            lambda values, version: editing.save_sla(db, offer_id, values, version), SLA_SUMMARY,
            key="offer_id")  # fmt: skip


discount_app.command("add")(
    form_command(
        E.DISCOUNT.form_fields,
        _discount_add,
        doc=f"Add a discount to an offer. {START} {ALL_OR_NOTHING}",
        defaults=starting(E.DISCOUNT.form_fields, starts.NEW_DISCOUNT_VALUES),
        argument=OFFER_ARG,
    )
)
extra_app.command("add")(
    form_command(
        E.EXTRA.form_fields,
        _extra_add,
        doc=f"Add an extra cost to an offer. {START} {ALL_OR_NOTHING}",
        defaults=starting(E.EXTRA.form_fields, starts.NEW_EXTRA_VALUES),
        argument=OFFER_ARG,
    )
)
extra_app.command("edit")(
    form_command(
        E.EXTRA.form_fields,
        _extra_edit,
        doc=f"Correct an extra cost. {KEEP} {ALL_OR_NOTHING}",
        argument=("EXTRA_ID", EXTRA_ID_HELP),
    )
)
extra_app.command("remove")(extra_remove)
sla_app.command("set")(
    form_command(
        E.SLA.form_fields,
        _sla_set,
        doc=f"Set an offer's SLA terms. {KEEP} {ALL_OR_NOTHING}",
        argument=OFFER_ARG,
    )
)


def register(root: typer.Typer) -> None:
    for name, group in (
        ("provider", provider_app),
        ("offer", offer_app),
        ("round", round_app),
        ("discount", discount_app),
        ("extra", extra_app),
        ("sla", sla_app),
    ):
        root.add_typer(group, name=name)
