import type { FastifyInstance } from 'fastify';
import type { CallerFor } from '../../rest/rest-plugin.js';

export function authRest(app: FastifyInstance, callerFor: CallerFor) {
  // GET /api/user — the signed-in user; 401 when signed out.
  app.get('/api/user', async (req, reply) => (await callerFor(req, reply)).auth.current());

  // POST /api/login — { username, password } → the user.
  app.post('/api/login', async (req, reply) => (await callerFor(req, reply)).auth.login(req.body as never));

  // POST /api/register — { username, password, name, email } → 201 the user, or 200 { requiresVerification, message }.
  app.post('/api/register', async (req, reply) => {
    const result = await (await callerFor(req, reply)).auth.register(req.body as never);
    if (result.requiresVerification) return { requiresVerification: true, message: result.message };
    return reply.status(201).send(result.user);
  });

  // POST /api/logout — ends the session on the server and clears the cookie.
  app.post('/api/logout', async (req, reply) => (await callerFor(req, reply)).auth.logout());

  // POST /api/password-reset/request — { email } → the same neutral message whether or not it exists.
  app.post('/api/password-reset/request', async (req, reply) =>
    (await callerFor(req, reply)).auth.requestPasswordReset(req.body as never),
  );

  // POST /api/password-reset/verify — { token } → { success } or 400 when unusable.
  app.post('/api/password-reset/verify', async (req, reply) =>
    (await callerFor(req, reply)).auth.verifyResetToken(req.body as never),
  );

  // POST /api/password-reset/reset — { token, password } → { success, message }; ends every session.
  app.post('/api/password-reset/reset', async (req, reply) =>
    (await callerFor(req, reply)).auth.resetPassword(req.body as never),
  );

  // GET /api/email/verify-token?token= — marks the address verified → { success, message }.
  app.get('/api/email/verify-token', async (req, reply) =>
    (await callerFor(req, reply)).auth.verifyEmail(req.query as never),
  );

  // POST /api/email/resend-verification — { email } → the same neutral message either way.
  app.post('/api/email/resend-verification', async (req, reply) =>
    (await callerFor(req, reply)).auth.resendVerification(req.body as never),
  );

  // GET /api/config — public facts the client needs before sign-in (demo account, free limit).
  app.get('/api/config', async (req, reply) => (await callerFor(req, reply)).auth.publicConfig());
}
