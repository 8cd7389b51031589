"""A real SMTP server on loopback for the e-mail tests (aiosmtpd): prints its port, then writes
each message it receives to a numbered file in the folder it is given: its envelope's
recipients, its From and Subject headers, and its plain-text body decoded."""
import asyncio
import email
import email.policy
import itertools
import pathlib
import sys

from aiosmtpd.smtp import SMTP


class Keep:
    numbers = itertools.count(1)

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)

    async def handle_DATA(self, server, session, envelope):
        number = next(self.numbers)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        text = (
            f"To: {','.join(envelope.rcpt_tos)}\nFrom: {message['From']}\n"
            f"Subject: {message['Subject']}\n\n{message.get_body(('plain',)).get_content()}"
        )
        partial = self.folder / f"{number:04}.part"
        partial.write_text(text)
        partial.rename(self.folder / f"{number:04}.eml")
        return "250 OK"


async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(Keep(sys.argv[1])), "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


asyncio.run(main())
