"""An SMTP server for the tests (aiosmtpd on loopback) that prints every message it receives.

Each message is printed between "---------- MESSAGE FOLLOWS ----------" and
"------------ END MESSAGE ------------", after two lines saying how it came:
"X-Sink-TLS: yes|no" and "X-Sink-Login: <the authenticated user, or nothing>".

    mail_sink.py --port N                                  plain SMTP, no STARTTLS, no AUTH
    mail_sink.py --port N --cert C --key K                 offers STARTTLS and requires it
    ... --login user:password [--only-login-mechanism]     requires AUTH (PLAIN and LOGIN, or LOGIN alone)
    mail_sink.py --port N --hang                           accepts connections and never answers
    mail_sink.py --port N --cert C --key K --inject-before-tls
                                                           a server of its own that answers STARTTLS with its
                                                           220 and, in the same write, a forged reply in the
                                                           clear (as a man in the middle would), then does TLS
"""
import argparse
import socket
import ssl
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult


class Printer:
    async def handle_DATA(self, server, session, envelope):
        login = session.auth_data if session.authenticated else ""
        print("---------- MESSAGE FOLLOWS ----------")
        print(f"X-Sink-TLS: {'yes' if session.ssl else 'no'}")
        print(f"X-Sink-Login: {login}")
        print(envelope.content.decode("utf8", errors="replace"))
        print("------------ END MESSAGE ------------", flush=True)
        return "250 OK"


def hang(port):
    listener = socket.create_server(("127.0.0.1", port))
    accepted = []
    print("ready", flush=True)
    while True:
        connection, _ = listener.accept()
        accepted.append(connection)


def injecting(port, cert, key):
    """One message at a time: STARTTLS answered with a cleartext reply stuck to the 220, then SMTP over TLS."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", port))
    print("ready", flush=True)
    while True:
        connection, _ = listener.accept()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = connection.makefile("rb")
        connection.sendall(b"220 injector ESMTP\r\n")
        reader.readline()  # EHLO
        connection.sendall(b"250-injector\r\n250 STARTTLS\r\n")
        reader.readline()  # STARTTLS
        connection.sendall(b"220 go ahead\r\n250-injected\r\n250 AUTH PLAIN\r\n")
        tls = context.wrap_socket(connection, server_side=True)
        lines = tls.makefile("rb")
        content = []
        while True:
            line = lines.readline()
            if not line:
                break
            command = line.strip().upper()
            if command.startswith(b"EHLO"):
                tls.sendall(b"250 injector\r\n")
            elif command == b"DATA":
                tls.sendall(b"354 go on\r\n")
                while True:
                    data = lines.readline()
                    if data in (b".\r\n", b""):
                        break
                    content.append(data.decode("utf8", errors="replace").rstrip("\r\n"))
                print("---------- MESSAGE FOLLOWS ----------")
                print("X-Sink-TLS: yes")
                print("X-Sink-Login: ")
                print("\n".join(content))
                print("------------ END MESSAGE ------------", flush=True)
                tls.sendall(b"250 OK\r\n")
            elif command == b"QUIT":
                tls.sendall(b"221 bye\r\n")
                break
            else:
                tls.sendall(b"250 OK\r\n")
        tls.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--login", help="user:password the server accepts; AUTH is then required")
    parser.add_argument("--only-login-mechanism", action="store_true")
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--inject-before-tls", action="store_true")
    arguments = parser.parse_args()
    if arguments.hang:
        hang(arguments.port)
    if arguments.inject_before_tls:
        injecting(arguments.port, arguments.cert, arguments.key)

    settings = {}
    if arguments.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(arguments.cert, arguments.key)
        settings.update(tls_context=context, require_starttls=True)
    if arguments.login:
        user, password = arguments.login.split(":", 1)

        def authenticate(server, session, envelope, mechanism, data):
            accepted = data.login.decode() == user and data.password.decode() == password
            return AuthResult(success=accepted, handled=False, auth_data=user if accepted else None)

        settings.update(authenticator=authenticate, auth_required=True, auth_require_tls=bool(arguments.cert))
        if arguments.only_login_mechanism:
            settings.update(auth_exclude_mechanism=["PLAIN"])
    controller = Controller(Printer(), hostname="127.0.0.1", port=arguments.port, **settings)
    controller.start()
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
