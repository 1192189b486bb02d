"""ISO 4217 currency codes and their minor units (decimal places shown for amounts)."""

from quotetui.domain.errors import BadInput
from quotetui.language import _
from quotetui.language.lists import quoted

_ZERO = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
_THREE = "BHD IQD JOD KWD LYD OMR TND"
_FOUR = "CLF UYW"
_TWO = (
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF "
    "CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL "
    "HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP "
    "MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD "
    "SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UZS VES "
    "WST XCD YER ZAR ZMW ZWG"
)

MINOR_UNITS: dict[str, int] = {
    **dict.fromkeys(_ZERO.split(), 0),
    **dict.fromkeys(_TWO.split(), 2),
    **dict.fromkeys(_THREE.split(), 3),
    **dict.fromkeys(_FOUR.split(), 4),
}


def currency_code(text: str) -> str:
    """Return the upper-case ISO 4217 code for ``text`` or raise :class:`BadInput`."""
    code = (text or "").strip().upper()
    if code == "RMB":  # the everyday name for the yuan in Chinese price sheets
        code = "CNY"
    if code not in MINOR_UNITS:
        raise BadInput(
            _("unknown currency {code}: expected an ISO 4217 code such as CNY, USD or EUR").format(code=quoted(text))
        )
    return code


def minor_units(code: str) -> int:
    return MINOR_UNITS[currency_code(code)]
