import type { FastifyInstance } from 'fastify';
import type { CallerFor } from '../../rest/rest-plugin.js';

export function foldersRest(app: FastifyInstance, callerFor: CallerFor) {
  // GET /api/folders — the caller's folders: [{ id, name, created, qrCodeCount }].
  app.get('/api/folders', async (req, reply) => (await callerFor(req, reply)).folders.list());

  // POST /api/folders — { name } → 201 the folder; a blank name is refused.
  app.post('/api/folders', async (req, reply) => {
    const folder = await (await callerFor(req, reply)).folders.create(req.body as never);
    return reply.status(201).send(folder);
  });

  // DELETE /api/folders/{id} — its codes move to the root; another user's folder is 404.
  app.delete<{ Params: { id: string } }>('/api/folders/:id', async (req, reply) =>
    (await callerFor(req, reply)).folders.delete({ id: req.params.id }),
  );
}
