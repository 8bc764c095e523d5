"""The README's "Client libraries" snippets run as written, against the fresh server."""

import pathlib
import re
import time

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def snippets():
    section = README.read_text().split("## Client libraries", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_snippets_run(server, capsys):
    base_url, key = server
    first, second = snippets()
    code = first.replace('"http://127.0.0.1:8080"', repr(base_url)).replace('"sk_test_..."', repr(key))
    # The invoice is paid by the payment watcher within about a second of the simulated payment.
    code = code.replace("print(lajan.invoices.get_invoice", "time.sleep(2)\nprint(lajan.invoices.get_invoice")
    scope = {"time": time}
    exec(compile(code, "README.md", "exec"), scope)
    exec(compile(second, "README.md", "exec"), scope)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "paid"
    assert out[1].startswith("400 validation_error [{'field': 'email'")
    assert any(line.endswith(" Marie") for line in out[2:])
