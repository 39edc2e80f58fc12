// The Activity's entry: runs inside Discord's Activity frame, signs the user in with
// Discord's Embedded App SDK and opens the board of the game in the Activity's channel.
//
// Steps (Discord's "Building an Activity"): the SDK's handshake with the Discord client
// (`ready`), `authorize` for a one-time OAuth2 code (scope `identify`, no prompt when the
// user already agreed), then the bot exchanges the code and checks with Discord that the
// user is in this Activity instance (POST /api/activity/session, see web/activity.py) and
// answers with the board's link of the instance's channel: the player's own board when
// they hold a seat in the channel's game, the spectators' board otherwise.
import { DiscordSDK } from "./discord-sdk.js";

const root = document.getElementById("app");
const status = document.getElementById("status");

function show(text, state) {
  status.textContent = text;
  root.dataset.state = state;
}

async function signIn() {
  const clientId = root.dataset.clientId;
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  root.dataset.state = "authorizing";
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const reply = await fetch("/api/activity/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      code,
      instance_id: sdk.instanceId,
    }),
  });
  const body = await reply.json();
  if (!reply.ok) {
    show(body.message, "refused");
    return;
  }
  root.dataset.state = "signed-in";
  window.location.replace(body.board);
}

signIn().catch(() => show(root.dataset.failed, "failed"));
