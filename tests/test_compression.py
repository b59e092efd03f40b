"""Pages and API answers travel compressed when the browser accepts it (static files are
compressed ahead by whitenoise)."""

import gzip

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/help", "/api/schema/"])
def test_answers_are_gzipped_for_browsers_that_accept_it(client, path):
    plain = client.get(path)
    packed = client.get(path, headers={"accept-encoding": "gzip, deflate, br"})

    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) < len(plain.content) / 2
    unpacked = gzip.decompress(packed.content)
    # The same page: only the per-answer CSRF masks and CSP nonces may differ.
    assert abs(len(unpacked) - len(plain.content)) < 200
