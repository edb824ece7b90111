# NOT built in CI (no Docker engine there): it only runs the npm scripts CI does test —
# `npm ci` and `npm run build` — and then the compiled server, as deploy/systemd does.
# docs/operations.md "Containers".
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# db:backup / db:restore run from the sources with tsx (a runtime dependency).
COPY --from=build /app/src ./src
COPY --from=build /app/scripts ./scripts
# /data/files: the order files (FILE_STORAGE=local), a volume shared by the instances (compose.yaml).
RUN mkdir -p /data/files /backups && chown node:node /data /data/files /backups
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# --liftoff-only --max-semi-space-size=8: scripts/server-node-flags.mjs (decision 111, memory).
CMD ["node", "--liftoff-only", "--max-semi-space-size=8", "dist/server/main.js"]
