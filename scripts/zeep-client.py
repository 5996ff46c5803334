#!/usr/bin/python3
"""Independent client proof: zeep (python3-zeep) reads the WSDLs the service publishes and calls
every operation of each service on all four ports (Soap, Soap12, HttpGet, HttpPost).

Usage: /usr/bin/python3 scripts/zeep-client.py <base url> <user> <password>

Prints one JSON line per call:
  {"service", "port", "operation", "ok", "summary"} or {..., "ok": false, "error"}
ok is true when the call returned a parsed, non-empty result without an Error element (an error
reported in a BaseResult, section 7.1, is not data).
The operations and their parameter types are read from the WSDL alone (the SOAP binding's request
element), so nothing here lists operations. Exit status: 0 when every call was made (whatever its
outcome), 3 when zeep cannot be imported, 2 when a WSDL cannot be loaded.
"""
import datetime
import decimal
import json
import sys

try:
    import zeep
    import zeep.helpers
    from zeep.transports import Transport
except ImportError as e:  # pragma: no cover - environment problem
    print(f"cannot import zeep ({e}): install it with `apt-get install python3-zeep`", file=sys.stderr)
    sys.exit(3)

SERVICES = {
    "Booking": "/1/SOAP/Booking.asmx",
    "NonStaticXMLAPI": "/1/SOAP/NonStaticXMLAPI.asmx",
}
PORTS = ["Soap", "Soap12", "HttpGet", "HttpPost"]

# Plausible values by parameter name; anything else gets a value of its type.
STRING_VALUES = {
    "language": "en",
    "bookingID": "100001",
    "bookingType": "FullPeriod",
    "email": "guest@example.com",
    "transferBookingID": "200001",
    "text": "Late arrival, around 23:00",
    "currencies": "EUR",
    "hotelID": "1",
    "roomID": "1",
    "resortID": "1",
    "transferID": "1",
    "arrivalDate": "2030-06-01",
    "arrivalTime": "10:00",
    "returnDepartureDate": "2030-06-08",
    "returnDepartureTime": "12:00",
}
DATE_VALUES = {
    "checkInDate": datetime.datetime(2030, 6, 1, 0, 0, 0),
    "checkOutDate": datetime.datetime(2030, 6, 8, 0, 0, 0),
}


def soap_parameters(binding, op_name):
    """(name, xsd type local name) of each child of the request element, in order."""
    op = binding._operations[op_name]
    element_type = op.input.body.type
    # document/literal wrapped: the body is one element whose children are the parameters
    children = element_type.elements[0][1].type.elements if len(element_type.elements) == 1 and \
        element_type.elements[0][0] == op_name else element_type.elements
    return [(name, el.type.name) for name, el in children]


def value_for(name, type_name, user, password, http):
    if name == "userName":
        return user
    if name == "password":
        return password
    if type_name == "dateTime":
        v = DATE_VALUES.get(name, datetime.datetime(2030, 6, 1))
        return v.isoformat() if http else v
    if type_name == "int":
        return "100001" if http else 100001
    if type_name == "decimal":
        return "2500.00" if http else decimal.Decimal("2500.00")
    return STRING_VALUES.get(name, "1")


def summarize(result):
    obj = zeep.helpers.serialize_object(result)
    text = json.dumps(obj, default=str, sort_keys=True)
    return obj, text[:400]


def non_empty(obj):
    if obj is None:
        return False
    if isinstance(obj, (dict, list, str)):
        return len(obj) > 0
    return True


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    base, user, password = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    transport = Transport(timeout=15, operation_timeout=15)
    for service, path in SERVICES.items():
        wsdl = f"{base}{path}?WSDL"
        try:
            client = zeep.Client(wsdl, transport=transport)
        except Exception as e:  # report and stop: nothing can be called without the WSDL
            print(json.dumps({"service": service, "port": None, "operation": None, "ok": False,
                              "error": f"cannot load {wsdl}: {type(e).__name__}: {e}"}), flush=True)
            return 2
        soap = client.bind(service, f"{service}Soap")
        operations = list(soap._binding._operations)
        for port in PORTS:
            proxy = client.bind(service, f"{service}{port}")
            http = port.startswith("Http")
            for op_name in operations:
                line = {"service": service, "port": port, "operation": op_name}
                try:
                    params = {name: value_for(name, t, user, password, http)
                              for name, t in soap_parameters(soap._binding, op_name)}
                    result = getattr(proxy, op_name)(**params)
                    obj, text = summarize(result)
                    line.update(ok=non_empty(obj), summary=text)
                    if not non_empty(obj):
                        line["error"] = "empty result"
                    elif isinstance(obj, dict) and obj.get("Error"):
                        # BaseResult (section 7.1): an error reported in the result is no data
                        line.update(ok=False, error=f"the result carries an Error: {json.dumps(obj['Error'], default=str)}")
                except Exception as e:
                    line.update(ok=False, error=f"{type(e).__name__}: {e}"[:600])
                print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
