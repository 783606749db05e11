--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: stratus_distance(double precision, double precision, double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stratus_distance(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision) RETURNS double precision
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT 6371000 * 2 * atan2(sqrt(a), sqrt(1 - a)) FROM (SELECT
        sin(radians(lat2 - lat1) / 2) ^ 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2 AS a) AS t
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accepted_messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accepted_messages (
    message text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: administrators; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.administrators (
    username text NOT NULL COLLATE pg_catalog."C",
    password_hash text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL
);


--
-- Name: apns_credentials; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.apns_credentials (
    container_id text NOT NULL COLLATE pg_catalog."C",
    key_id text NOT NULL COLLATE pg_catalog."C",
    team_id text NOT NULL COLLATE pg_catalog."C",
    topic text NOT NULL COLLATE pg_catalog."C",
    private_key text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: apns_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.apns_tokens (
    container_id text NOT NULL COLLATE pg_catalog."C",
    apns_token text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    apns_environment text NOT NULL COLLATE pg_catalog."C",
    registered_at bigint NOT NULL,
    session_hash text COLLATE pg_catalog."C"
);


--
-- Name: asset_blobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_blobs (
    checksum text NOT NULL COLLATE pg_catalog."C",
    size bigint NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: asset_chunks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_chunks (
    checksum text NOT NULL COLLATE pg_catalog."C",
    part integer NOT NULL,
    bytes bytea NOT NULL
);
ALTER TABLE ONLY public.asset_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;


--
-- Name: asset_collection_holds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_collection_holds (
    holder text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: asset_references; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_references (
    zone_id bigint NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C",
    checksum text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: asset_uploads; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_uploads (
    receipt_hash text NOT NULL COLLATE pg_catalog."C",
    database_id bigint NOT NULL,
    zone_name text NOT NULL COLLATE pg_catalog."C",
    record_name text NOT NULL COLLATE pg_catalog."C",
    field_name text NOT NULL COLLATE pg_catalog."C",
    uploaded_by text NOT NULL COLLATE pg_catalog."C",
    checksum text NOT NULL COLLATE pg_catalog."C",
    size bigint NOT NULL,
    uploaded_at bigint NOT NULL
);


--
-- Name: bus_messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.bus_messages (
    id bigint NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: bus_messages_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.bus_messages ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.bus_messages_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: change_sequence; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_sequence (
    id integer NOT NULL,
    value bigint NOT NULL,
    CONSTRAINT change_sequence_id_check CHECK ((id = 1))
);


--
-- Name: console_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.console_sessions (
    token_hash text NOT NULL COLLATE pg_catalog."C",
    username text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: containers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.containers (
    id text NOT NULL COLLATE pg_catalog."C",
    api_token text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL
);


--
-- Name: databases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.databases (
    id bigint NOT NULL,
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    scope text NOT NULL COLLATE pg_catalog."C",
    owner_record_name text NOT NULL COLLATE pg_catalog."C",
    purged_sequence bigint DEFAULT 0 NOT NULL
);


--
-- Name: databases_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.databases ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.databases_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: email_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.email_codes (
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    code_hash text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL,
    attempts integer DEFAULT 0 NOT NULL
);


--
-- Name: job_leases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_leases (
    name text NOT NULL COLLATE pg_catalog."C",
    holder text NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: rate_buckets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_buckets (
    key text NOT NULL COLLATE pg_catalog."C",
    tokens double precision NOT NULL,
    updated_at bigint NOT NULL,
    taken boolean NOT NULL
);


--
-- Name: record_index; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.record_index (
    zone_id bigint NOT NULL,
    record_type text NOT NULL COLLATE pg_catalog."C",
    field_name text NOT NULL COLLATE pg_catalog."C",
    value bytea NOT NULL,
    number double precision,
    is_real boolean NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: record_references; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.record_references (
    zone_id bigint NOT NULL,
    target_name text NOT NULL COLLATE pg_catalog."C",
    source_name text NOT NULL COLLATE pg_catalog."C",
    action text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: records; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.records (
    zone_id bigint NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C",
    change_tag text NOT NULL COLLATE pg_catalog."C",
    fields bytea NOT NULL,
    created_at bigint NOT NULL,
    created_by text NOT NULL COLLATE pg_catalog."C",
    created_device text NOT NULL COLLATE pg_catalog."C",
    modified_at bigint NOT NULL,
    modified_by text NOT NULL COLLATE pg_catalog."C",
    modified_device text NOT NULL COLLATE pg_catalog."C",
    parent text COLLATE pg_catalog."C",
    share text COLLATE pg_catalog."C",
    sequence bigint NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    create_key text COLLATE pg_catalog."C"
);


--
-- Name: schema_fields; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_fields (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C",
    field_name text NOT NULL COLLATE pg_catalog."C",
    field_type text NOT NULL COLLATE pg_catalog."C",
    indexes integer NOT NULL
);


--
-- Name: schema_grants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_grants (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C",
    role text NOT NULL COLLATE pg_catalog."C",
    permissions integer NOT NULL
);


--
-- Name: schema_record_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_record_types (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: schema_roles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_roles (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    role text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: server_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.server_keys (
    key_id text NOT NULL COLLATE pg_catalog."C",
    container_id text NOT NULL COLLATE pg_catalog."C",
    public_key text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL,
    revoked_at bigint
);


--
-- Name: server_secrets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.server_secrets (
    name text NOT NULL COLLATE pg_catalog."C",
    value bytea NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    token_hash text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: share_participants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.share_participants (
    zone_id bigint NOT NULL,
    share_record_name text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    permission text NOT NULL COLLATE pg_catalog."C",
    type text NOT NULL COLLATE pg_catalog."C",
    status text NOT NULL COLLATE pg_catalog."C",
    "position" integer NOT NULL
);


--
-- Name: shared_zones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shared_zones (
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    zone_id bigint NOT NULL,
    active boolean NOT NULL,
    sequence bigint NOT NULL
);


--
-- Name: shares; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shares (
    zone_id bigint NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C",
    root_record_name text COLLATE pg_catalog."C",
    short_guid text NOT NULL COLLATE pg_catalog."C",
    public_permission text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: store_epoch; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.store_epoch (
    id integer NOT NULL,
    epoch bigint NOT NULL,
    CONSTRAINT store_epoch_id_check CHECK ((id = 1))
);


--
-- Name: stratus_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stratus_migrations (
    identifier text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: subscriptions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.subscriptions (
    database_id bigint NOT NULL,
    owner text NOT NULL COLLATE pg_catalog."C",
    subscription_id text NOT NULL COLLATE pg_catalog."C",
    body text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: user_roles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.user_roles (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    role text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    container_id text NOT NULL COLLATE pg_catalog."C",
    username text NOT NULL COLLATE pg_catalog."C",
    password_hash text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL,
    email text COLLATE pg_catalog."C",
    discoverable boolean DEFAULT false NOT NULL,
    email_verified boolean DEFAULT false NOT NULL,
    disabled_at bigint
);


--
-- Name: zones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.zones (
    id bigint NOT NULL,
    database_id bigint NOT NULL,
    zone_name text NOT NULL COLLATE pg_catalog."C",
    change_sequence bigint NOT NULL,
    purged_sequence bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    deleted_at bigint
);


--
-- Name: zones_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.zones ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.zones_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Data for Name: accepted_messages; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: administrators; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: apns_credentials; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: apns_tokens; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: asset_blobs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_blobs VALUES ('kzU1/pOH1RyF8Pu5AMtgOBpPy3EcGLwUxim2u1rgSx0=', 48, 1795695301276);


--
-- Data for Name: asset_chunks; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_chunks VALUES ('kzU1/pOH1RyF8Pu5AMtgOBpPy3EcGLwUxim2u1rgSx0=', 0, '\x66697874757265206173736574206279746573207772697474656e206279207468652065306166636438206275696c64');


--
-- Data for Name: asset_collection_holds; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: asset_references; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_references VALUES (2, 'note-1', 'kzU1/pOH1RyF8Pu5AMtgOBpPy3EcGLwUxim2u1rgSx0=');


--
-- Data for Name: asset_uploads; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_uploads VALUES ('9df64bb8bd821a226ada4fe6b1eee43cc0bfcc7b37495fb925a803c19db4b270', 1, 'Notes', 'note-1', 'file', '_f7bf4c1ec5323608a1f1f3a4667351fa', 'kzU1/pOH1RyF8Pu5AMtgOBpPy3EcGLwUxim2u1rgSx0=', 48, 1795695301276);


--
-- Data for Name: bus_messages; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: change_sequence; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.change_sequence VALUES (1, 6);


--
-- Data for Name: console_sessions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: containers; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.containers VALUES ('iCloud.test.stratus', 'cd45206b1a2f62d32cde3189b08094141543fea12e9348b4979ef8ced7a7a10b', 1795695294429);


--
-- Data for Name: databases; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.databases VALUES (1, 'iCloud.test.stratus', 'development', 'private', '_f7bf4c1ec5323608a1f1f3a4667351fa', 0);


--
-- Data for Name: email_codes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: job_leases; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: rate_buckets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.rate_buckets VALUES ('signup|127.0.0.1', 199, 1795695298562, true);


--
-- Data for Name: record_index; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: record_references; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.record_references VALUES (2, 'note-1', 'note-2', 'DELETE_SELF');


--
-- Data for Name: records; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.records VALUES (2, 'note-1', 'Note', '3', '\x7b2274616773223a7b2276616c7565223a5b2261222c2262225d2c2274797065223a22535452494e475f4c495354227d2c2266696c65223a7b2276616c7565223a7b2266696c65436865636b73756d223a226b7a55312f704f483152794638507535414d74674f42705079334563474c775578696d32753172675378303d222c2273697a65223a34387d2c2274797065223a2241535345544944227d2c227469746c65223a7b2276616c7565223a225772697474656e206265666f72652074686520726564657369676e222c2274797065223a22535452494e47227d2c22636f756e74223a7b2276616c7565223a34322c2274797065223a22494e543634227d7d', 1795695302703, '_f7bf4c1ec5323608a1f1f3a4667351fa', 'stratus', 1795695302703, '_f7bf4c1ec5323608a1f1f3a4667351fa', 'stratus', NULL, NULL, 3, false, NULL);
INSERT INTO public.records VALUES (2, 'note-2', 'Note', '4', '\x7b227469746c65223a7b2276616c7565223a2241206368696c64222c2274797065223a22535452494e47227d2c22706172656e744e6f7465223a7b2276616c7565223a7b227265636f72644e616d65223a226e6f74652d31222c22616374696f6e223a2244454c4554455f53454c46227d2c2274797065223a225245464552454e4345227d7d', 1795695302703, '_f7bf4c1ec5323608a1f1f3a4667351fa', 'stratus', 1795695302703, '_f7bf4c1ec5323608a1f1f3a4667351fa', 'stratus', NULL, NULL, 4, false, NULL);
INSERT INTO public.records VALUES (2, 'gone', 'Note', '6', '\x7b7d', 1795695302703, '_f7bf4c1ec5323608a1f1f3a4667351fa', 'stratus', 1795695302783, '_f7bf4c1ec5323608a1f1f3a4667351fa', 'stratus', NULL, NULL, 6, true, NULL);


--
-- Data for Name: schema_fields; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'tags', 'STRING_LIST', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'file', 'ASSET', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'title', 'STRING', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'count', 'INT64', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'parentNote', 'REFERENCE', 0);


--
-- Data for Name: schema_grants; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: schema_record_types; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_record_types VALUES ('iCloud.test.stratus', 'development', 'Note');


--
-- Data for Name: schema_roles; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: server_keys; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: server_secrets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.server_secrets VALUES ('server', '\x7b803befb8446a29051f147d415ae2681a958f7eb48755ce14fc53aa4dd75155');


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.sessions VALUES ('64d96eedc8bac29b44949b8d9db15ee6106051e0e32dd51073b210ecfc995595', '_f7bf4c1ec5323608a1f1f3a4667351fa', 'iCloud.test.stratus', 'development', 1796904898895);


--
-- Data for Name: share_participants; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: shared_zones; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: shares; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: store_epoch; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.store_epoch VALUES (1, 0);


--
-- Data for Name: stratus_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stratus_migrations VALUES ('v1', '2026-11-26 12:14:53.963212+00');
INSERT INTO public.stratus_migrations VALUES ('v2-instances', '2026-11-26 12:14:54.351307+00');
INSERT INTO public.stratus_migrations VALUES ('v3-job-leases', '2026-11-26 12:14:54.384748+00');
INSERT INTO public.stratus_migrations VALUES ('v4-asset-chunks', '2026-11-26 12:14:54.398593+00');
INSERT INTO public.stratus_migrations VALUES ('v5-fleet-counters', '2026-11-26 12:14:54.405636+00');
INSERT INTO public.stratus_migrations VALUES ('v6-apns-token-sessions', '2026-11-26 12:14:54.410562+00');


--
-- Data for Name: subscriptions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.subscriptions VALUES (1, '_f7bf4c1ec5323608a1f1f3a4667351fa', 'notes', '{"subscriptionID":"notes","zoneID":{"zoneName":"Notes"},"notificationInfo":{"shouldSendContentAvailable":true},"subscriptionType":"zone"}');


--
-- Data for Name: user_roles; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.users VALUES ('_f7bf4c1ec5323608a1f1f3a4667351fa', 'iCloud.test.stratus', 'fixture-alice', 'scrypt$15$8$1$gH5rYqknHzYxalllSNinvQ==$BMJ8YxBJK1OMGbkpAWuf7KhTn5sx0/TMOKvRMWDgYiQ=', 1795695298895, NULL, false, false, NULL);


--
-- Data for Name: zones; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.zones VALUES (1, 1, '_defaultZone', 1, 0, false, NULL);
INSERT INTO public.zones VALUES (2, 1, 'Notes', 6, 0, false, NULL);


--
-- Name: bus_messages_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.bus_messages_id_seq', 1, false);


--
-- Name: databases_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.databases_id_seq', 1, true);


--
-- Name: zones_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.zones_id_seq', 2, true);


--
-- Name: accepted_messages accepted_messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accepted_messages
    ADD CONSTRAINT accepted_messages_pkey PRIMARY KEY (message);


--
-- Name: administrators administrators_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.administrators
    ADD CONSTRAINT administrators_pkey PRIMARY KEY (username);


--
-- Name: apns_credentials apns_credentials_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apns_credentials
    ADD CONSTRAINT apns_credentials_pkey PRIMARY KEY (container_id);


--
-- Name: apns_tokens apns_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apns_tokens
    ADD CONSTRAINT apns_tokens_pkey PRIMARY KEY (container_id, apns_token);


--
-- Name: asset_blobs asset_blobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_blobs
    ADD CONSTRAINT asset_blobs_pkey PRIMARY KEY (checksum);


--
-- Name: asset_chunks asset_chunks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_chunks
    ADD CONSTRAINT asset_chunks_pkey PRIMARY KEY (checksum, part);


--
-- Name: asset_collection_holds asset_collection_holds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_collection_holds
    ADD CONSTRAINT asset_collection_holds_pkey PRIMARY KEY (holder);


--
-- Name: asset_references asset_references_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_references
    ADD CONSTRAINT asset_references_pkey PRIMARY KEY (zone_id, record_name, checksum);


--
-- Name: asset_uploads asset_uploads_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_uploads
    ADD CONSTRAINT asset_uploads_pkey PRIMARY KEY (receipt_hash);


--
-- Name: bus_messages bus_messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bus_messages
    ADD CONSTRAINT bus_messages_pkey PRIMARY KEY (id);


--
-- Name: change_sequence change_sequence_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_sequence
    ADD CONSTRAINT change_sequence_pkey PRIMARY KEY (id);


--
-- Name: console_sessions console_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.console_sessions
    ADD CONSTRAINT console_sessions_pkey PRIMARY KEY (token_hash);


--
-- Name: containers containers_api_token_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.containers
    ADD CONSTRAINT containers_api_token_key UNIQUE (api_token);


--
-- Name: containers containers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.containers
    ADD CONSTRAINT containers_pkey PRIMARY KEY (id);


--
-- Name: databases databases_container_id_environment_scope_owner_record_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.databases
    ADD CONSTRAINT databases_container_id_environment_scope_owner_record_name_key UNIQUE (container_id, environment, scope, owner_record_name);


--
-- Name: databases databases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.databases
    ADD CONSTRAINT databases_pkey PRIMARY KEY (id);


--
-- Name: email_codes email_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.email_codes
    ADD CONSTRAINT email_codes_pkey PRIMARY KEY (user_record_name);


--
-- Name: job_leases job_leases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_leases
    ADD CONSTRAINT job_leases_pkey PRIMARY KEY (name);


--
-- Name: rate_buckets rate_buckets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_buckets
    ADD CONSTRAINT rate_buckets_pkey PRIMARY KEY (key);


--
-- Name: record_index record_index_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.record_index
    ADD CONSTRAINT record_index_pkey PRIMARY KEY (zone_id, record_type, field_name, value, record_name);


--
-- Name: record_references record_references_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.record_references
    ADD CONSTRAINT record_references_pkey PRIMARY KEY (zone_id, target_name, source_name, action);


--
-- Name: records records_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.records
    ADD CONSTRAINT records_pkey PRIMARY KEY (zone_id, record_name);


--
-- Name: schema_fields schema_fields_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_fields
    ADD CONSTRAINT schema_fields_pkey PRIMARY KEY (container_id, environment, record_type, field_name);


--
-- Name: schema_grants schema_grants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_grants
    ADD CONSTRAINT schema_grants_pkey PRIMARY KEY (container_id, environment, record_type, role);


--
-- Name: schema_record_types schema_record_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_record_types
    ADD CONSTRAINT schema_record_types_pkey PRIMARY KEY (container_id, environment, record_type);


--
-- Name: schema_roles schema_roles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_roles
    ADD CONSTRAINT schema_roles_pkey PRIMARY KEY (container_id, environment, role);


--
-- Name: server_keys server_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.server_keys
    ADD CONSTRAINT server_keys_pkey PRIMARY KEY (key_id);


--
-- Name: server_secrets server_secrets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.server_secrets
    ADD CONSTRAINT server_secrets_pkey PRIMARY KEY (name);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (token_hash);


--
-- Name: share_participants share_participants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.share_participants
    ADD CONSTRAINT share_participants_pkey PRIMARY KEY (zone_id, share_record_name, user_record_name);


--
-- Name: shared_zones shared_zones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shared_zones
    ADD CONSTRAINT shared_zones_pkey PRIMARY KEY (user_record_name, zone_id);


--
-- Name: shares shares_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shares
    ADD CONSTRAINT shares_pkey PRIMARY KEY (zone_id, record_name);


--
-- Name: shares shares_short_guid_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shares
    ADD CONSTRAINT shares_short_guid_key UNIQUE (short_guid);


--
-- Name: store_epoch store_epoch_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.store_epoch
    ADD CONSTRAINT store_epoch_pkey PRIMARY KEY (id);


--
-- Name: stratus_migrations stratus_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stratus_migrations
    ADD CONSTRAINT stratus_migrations_pkey PRIMARY KEY (identifier);


--
-- Name: subscriptions subscriptions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subscriptions
    ADD CONSTRAINT subscriptions_pkey PRIMARY KEY (database_id, owner, subscription_id);


--
-- Name: user_roles user_roles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_roles
    ADD CONSTRAINT user_roles_pkey PRIMARY KEY (container_id, environment, user_record_name, role);


--
-- Name: users users_container_id_username_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_container_id_username_key UNIQUE (container_id, username);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (user_record_name);


--
-- Name: zones zones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.zones
    ADD CONSTRAINT zones_pkey PRIMARY KEY (id);


--
-- Name: apns_tokens_session; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX apns_tokens_session ON public.apns_tokens USING btree (session_hash);


--
-- Name: apns_tokens_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX apns_tokens_user ON public.apns_tokens USING btree (container_id, environment, user_record_name, registered_at);


--
-- Name: asset_references_checksum; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX asset_references_checksum ON public.asset_references USING btree (checksum, zone_id);


--
-- Name: asset_uploads_age; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX asset_uploads_age ON public.asset_uploads USING btree (uploaded_at);


--
-- Name: asset_uploads_checksum; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX asset_uploads_checksum ON public.asset_uploads USING btree (checksum);


--
-- Name: bus_messages_age; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX bus_messages_age ON public.bus_messages USING btree (created_at);


--
-- Name: console_sessions_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX console_sessions_user ON public.console_sessions USING btree (username);


--
-- Name: record_index_record; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX record_index_record ON public.record_index USING btree (zone_id, record_name);


--
-- Name: record_references_source; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX record_references_source ON public.record_references USING btree (zone_id, source_name);


--
-- Name: records_changes; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX records_changes ON public.records USING btree (zone_id, sequence);


--
-- Name: server_keys_container; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX server_keys_container ON public.server_keys USING btree (container_id, created_at);


--
-- Name: sessions_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_expiry ON public.sessions USING btree (expires_at);


--
-- Name: sessions_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_user ON public.sessions USING btree (user_record_name);


--
-- Name: share_participants_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX share_participants_user ON public.share_participants USING btree (user_record_name, zone_id);


--
-- Name: shared_zones_changes; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shared_zones_changes ON public.shared_zones USING btree (user_record_name, sequence);


--
-- Name: shared_zones_zone; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shared_zones_zone ON public.shared_zones USING btree (zone_id, active);


--
-- Name: users_verified_email; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_verified_email ON public.users USING btree (container_id, email) WHERE email_verified;


--
-- Name: zones_changes; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX zones_changes ON public.zones USING btree (database_id, change_sequence);


--
-- Name: zones_live_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX zones_live_name ON public.zones USING btree (database_id, zone_name) WHERE (NOT deleted);


--
-- Name: sessions sessions_user_record_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_user_record_name_fkey FOREIGN KEY (user_record_name) REFERENCES public.users(user_record_name);


--
-- Name: users users_container_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_container_id_fkey FOREIGN KEY (container_id) REFERENCES public.containers(id);


--
-- Name: zones zones_database_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.zones
    ADD CONSTRAINT zones_database_id_fkey FOREIGN KEY (database_id) REFERENCES public.databases(id);


--
-- PostgreSQL database dump complete
--


