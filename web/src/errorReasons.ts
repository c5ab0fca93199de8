/**
 * The catalogue's text for each ErrorInfo reason an operator can meet, in both languages (issue 33 §8). A `{name}`
 * is a value of the error's ErrorInfo metadata, or one errorText derives from it (`{refundable}` from
 * `refundableCents`, `{retryAfterMinutes}` from `retryAfterMs`); a text whose values are missing is not used.
 * Reasons whose message is the specification's text (its catalogue keys, and provider failures that quote the
 * provider after the specification's prefix) have no entry here: the gateway's words stay as they are.
 */
export const PT_ERROR_REASONS: Record<string, string> = {
  // Sign-in and two-step verification.
  WRONG_CREDENTIALS: 'E-mail ou senha incorretos.',
  LOCKED_OUT: 'Muitas tentativas de entrada sem sucesso: tente de novo em {retryAfterMinutes} min.',
  RATE_LIMITED: 'Muitas solicitações em pouco tempo: tente de novo em {retryAfterSeconds} s.',
  CSRF: 'Esta página não foi reconhecida pela sua sessão: recarregue a página e tente de novo.',
  TOTP_REQUIRED: 'Digite o código de 6 dígitos do seu aplicativo autenticador.',
  WRONG_TOTP_CODE: 'Código incorreto ou já usado. Espere o próximo código e tente de novo.',
  TOTP_ENROLLMENT_REQUIRED: 'Ative a verificação em duas etapas em Minha conta antes de continuar: ela é obrigatória para administradores.',
  TOTP_ALREADY_ENABLED: 'A verificação em duas etapas já está ativa: desative-a antes de ativá-la de novo.',
  TOTP_NOT_BEGUN: 'Esta ativação não está mais em andamento: comece de novo ou use o código da ativação mais recente.',
  TOTP_NOT_ENABLED: 'A verificação em duas etapas não está ativa.',
  // Team.
  OPERATOR_EMAIL_TAKEN: 'Já existe um operador com este e-mail.',
  LAST_ACTIVE_ADMIN: 'O último administrador ativo não pode ser desativado nem mudar de papel.',
  PERMISSION_DENIED: 'Você não tem permissão para isto (é preciso {permission}).',
  // Charges, refunds and cards.
  CHARGE_NOT_REFUNDABLE: 'Só uma transação aprovada pode ser estornada.',
  NO_PIX_RECEIVED: 'Nenhum PIX foi recebido para esta transação: não há o que estornar.',
  NOT_SIMULATED_PROVIDER: 'Só o provedor SANDBOX simula pagamentos: esta transação é de outro provedor.',
  REFUND_EXCEEDS_CHARGE: 'Desta transação só resta {refundable} para estornar (contando estornos em andamento).',
  CARD_BIN_REQUIRED: 'Para calcular as parcelas, informe o BIN do cartão (os 6 a 8 primeiros dígitos).',
  CARD_TOKEN_EXPIRED: 'O token do cartão expirou: gere um novo.',
  CARD_TOKEN_USED: 'Este token de cartão já foi usado por outra cobrança: gere um novo.',
  CARD_TOKEN_NOT_ACCEPTED: 'Este provedor não aceita o token de cartão do gateway: cobre com um cartão tokenizado pelo próprio provedor.',
  CARD_TOKEN_USE_UNRECORDED: 'O uso do token do cartão não pôde ser registrado; nada foi enviado ao provedor: tente de novo.',
  INVALID_CARD_TOKEN: 'O cartão informado não é um token de cartão utilizável: gere um novo.',
  SAVED_CARD_UNKNOWN: 'Este cartão não é um cartão salvo desta conta de provedor.',
  SAVED_CARD_REVOKED: 'O cartão salvo foi revogado: salve o cartão de novo para cobrá-lo.',
  SAVED_CARD_NOT_ACCEPTED: 'Este provedor não aceita cartão salvo (ele pede o CVV, que o gateway não guarda): cobre com um novo token de cartão.',
  IDEMPOTENCY_KEY_REUSED: 'Esta solicitação já foi usada para outra operação. Recarregue a página e tente de novo.',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'Esta solicitação ainda está em andamento: aguarde um pouco e tente de novo.',
  IDEMPOTENCY_OUTCOME_UNKNOWN:
    'A primeira tentativa desta solicitação terminou sem resultado conhecido e ainda está sendo confirmada com o provedor: tente de novo mais tarde.',
  // Payouts.
  PAYOUT_SELF_APPROVAL: 'Você não pode aprovar um saque que você mesmo solicitou: outro operador precisa aprová-lo.',
  PAYOUT_NOT_AWAITING_APPROVAL: 'Este saque não aguarda mais aprovação.',
  PAYOUT_REVIEW_BY_OPERATOR: 'Saques retidos são revisados por um operador conectado ao back-office.',
  ROUTED_PAYOUT_NEEDS_APPROVAL: 'Um saque acima do limite de aprovação espera um segundo operador e não pode usar uma rota: escolha a conta de provedor.',
  // Routes.
  ALREADY_EXISTS: 'Este nome já está em uso: escolha outro.',
  NO_ROUTE_RULE_MATCHES: 'Nenhuma regra da rota atende a esta operação: ajuste a rota ou escolha uma conta de provedor.',
  ROUTE_ACCOUNTS_DELETED: 'Todas as contas de uma regra da rota foram excluídas: atualize a rota.',
  ROUTE_NO_USABLE_ACCOUNT: 'Nenhuma conta da regra escolhida pode ser usada agora: confira as contas da rota.',
  ROUTE_NO_TARGET: 'A regra escolhida da rota não tem contas: atualize a rota.',
  ROUTE_TARGET_UNUSABLE: 'A conta de provedor em {field} não serve a esta regra: foi excluída, ou o provedor não faz as cobranças que a regra pede.',
  ROUTES_NOT_SERVED: 'Este gateway não atende rotas: escolha a conta de provedor.',
  INVALID_BASE_URL: 'A URL base desta conta de provedor é inválida: corrija-a na conta.',
  PROVIDER_REQUEST_TOO_LARGE: 'Um identificador ou parâmetro é longo demais para o provedor; nada foi enviado.',
  PROVIDER_CIRCUIT_OPEN: 'O provedor falhou várias vezes seguidas e o gateway parou de chamá-lo por um momento; nada foi enviado: tente de novo em instantes.',
  PROVIDER_REDIRECTED: 'O provedor respondeu com um redirecionamento, que o gateway não segue: confira a URL base da conta.',
  PROVIDER_BAD_TOKEN_RESPONSE: 'O provedor respondeu à autenticação sem um token; nada foi enviado: confira as credenciais da conta ou tente de novo.',
  CLIENT_CERTIFICATE_UNUSABLE: 'O certificado de cliente da conta não pode ser usado: confira o arquivo e a senha do certificado.',
  CLIENT_CERTIFICATE_UNAVAILABLE: 'O certificado de cliente da conta não pôde ser lido do endereço configurado: confira o endereço ou tente de novo.',
  // Disputes and documents.
  CHARGE_NOT_PAID: 'Só uma cobrança paga pode ser disputada.',
  DISPUTE_ALREADY_OPEN: 'Esta cobrança já tem uma disputa aberta deste tipo.',
  DISPUTE_CLOSED: 'Esta disputa está encerrada: não aceita mais evidências nem mudanças.',
  NO_EVIDENCE: 'Esta disputa não tem evidências: adicione ao menos um documento antes de enviar a defesa.',
  NO_NEW_EVIDENCE: 'O provedor já recebeu todas as evidências desta disputa: adicione uma nova evidência para enviar a defesa de novo.',
  DEFENSE_IN_PROGRESS:
    'A defesa desta disputa está sendo enviada ao provedor agora; nenhum documento foi enviado duas vezes: recarregue a disputa em instantes.',
  ALREADY_SETTLED: 'Outra pessoa já resolveu esta divergência: recarregue a lista para ver a resolução.',
  NOTHING_TO_CHANGE: 'Nada foi alterado: mude ao menos um campo antes de salvar.',
  PROVIDER_DISPUTE_ID_SET: 'Esta disputa já tem o ID do provedor; ele não pode ser trocado.',
  EVIDENCE_NOT_PRIVATE:
    'Este documento pode ser lido sem autorização no endereço dele: envie a evidência de novo pela página da disputa, que a guarda como privada.',
  DEFENSE_DOCUMENTS_REFUSED: '{provider} não aceita estes documentos (quantidade, tamanho total ou tipo de arquivo fora dos limites dele); nada foi enviado.',
  DOCUMENT_UNREADABLE: 'O documento {fileName} não pôde ser lido do armazenamento do gateway; nada foi enviado: tente de novo.',
  STORAGE_UNAVAILABLE: 'O armazenamento de arquivos do gateway não está configurado: documentos não podem ser enviados nem lidos.',
  // Operations and receivers.
  DELIVERY_NOT_GAVE_UP: 'Esta entrega não está mais com tentativas esgotadas: recarregue a lista.',
  NOTIFICATION_BUSY: 'Esta notificação está sendo processada agora, ou não existe mais: recarregue a lista e tente de novo.',
  NOTHING_TO_RECORD: 'Esta solicitação não guardou nada de que registrar um resultado: confira com o provedor e resolva-a como "não executou nada".',
  RECEIVER_NOT_CREATED_HERE: 'Este recebedor não foi criado pelo gateway, então o gateway não tem o token de API dele no provedor.',
  // The gateway itself.
  NOT_FOUND: 'Não encontrado: o registro não existe ou foi removido.',
  PROVIDER_NOT_REGISTERED: 'O provedor desta conta não está disponível neste gateway.',
  OVERLOADED: 'O gateway está sobrecarregado: tente de novo em instantes.',
  DATABASE_UNAVAILABLE: 'O banco de dados do gateway está indisponível ou ocupado: tente de novo em instantes (erro {errorId}).',
  INTERNAL: 'Erro interno do gateway (erro {errorId}).',
  // Client certificates uploaded from the back-office.
  CERTIFICATE_NOT_PRIVATE:
    'Este arquivo do gateway não foi enviado como certificado e pode estar acessível a qualquer um: envie o certificado de novo pelo campo de upload do certificado.',
};

export const EN_ERROR_REASONS: Record<string, string> = {
  WRONG_CREDENTIALS: 'Wrong e-mail or password.',
  LOCKED_OUT: 'Too many failed sign-ins: try again in {retryAfterMinutes} min.',
  RATE_LIMITED: 'Too many requests in a short time: try again in {retryAfterSeconds} s.',
  CSRF: 'Your session did not recognise this page: reload the page and try again.',
  TOTP_REQUIRED: 'Type the 6-digit code from your authenticator app.',
  WRONG_TOTP_CODE: 'Wrong or already used code. Wait for the next code and try again.',
  TOTP_ENROLLMENT_REQUIRED: 'Turn on two-step verification in My account before going on: it is required for admins.',
  TOTP_ALREADY_ENABLED: 'Two-step verification is already on: turn it off before turning it on again.',
  TOTP_NOT_BEGUN: 'This enrollment is no longer under way: begin again or use the code of the latest one.',
  TOTP_NOT_ENABLED: 'Two-step verification is not on.',
  OPERATOR_EMAIL_TAKEN: 'An operator with this e-mail already exists.',
  LAST_ACTIVE_ADMIN: 'The last active admin cannot be disabled or given another role.',
  PERMISSION_DENIED: 'You do not have permission for this (it needs {permission}).',
  CHARGE_NOT_REFUNDABLE: 'Only an approved transaction can be refunded.',
  NO_PIX_RECEIVED: 'No PIX was received for this transaction: there is nothing to refund.',
  NOT_SIMULATED_PROVIDER: "Only the SANDBOX provider simulates payments: this transaction is another provider's.",
  REFUND_EXCEEDS_CHARGE: 'Only {refundable} of this transaction is left to refund (counting refunds in progress).',
  CARD_BIN_REQUIRED: "To quote installments, give the card's BIN (its first 6 to 8 digits).",
  CARD_TOKEN_EXPIRED: 'The card token expired: create a new one.',
  CARD_TOKEN_USED: 'This card token was already used by another charge: create a new one.',
  CARD_TOKEN_NOT_ACCEPTED: "This provider does not take the gateway's card token: charge it with a card tokenised by the provider itself.",
  CARD_TOKEN_USE_UNRECORDED: "The card token's use could not be recorded; nothing was sent to the provider: try again.",
  INVALID_CARD_TOKEN: 'The card given is not a usable card token: create a new one.',
  SAVED_CARD_UNKNOWN: 'This card is not a saved card of this provider account.',
  SAVED_CARD_REVOKED: 'The saved card was revoked: save the card again to charge it.',
  SAVED_CARD_NOT_ACCEPTED: 'This provider does not take a saved card (it wants the CVV, which the gateway does not keep): charge it with a new card token.',
  IDEMPOTENCY_KEY_REUSED: 'This request was already used for another operation. Reload the page and try again.',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'This request is still under way: wait a moment and try again.',
  IDEMPOTENCY_OUTCOME_UNKNOWN: "This request's first attempt ended without a known outcome and is still being confirmed with the provider: try again later.",
  PAYOUT_SELF_APPROVAL: 'You cannot approve a payout you requested yourself: another operator must approve it.',
  PAYOUT_NOT_AWAITING_APPROVAL: 'This payout no longer awaits approval.',
  PAYOUT_REVIEW_BY_OPERATOR: 'Held payouts are reviewed by an operator signed in to the back-office.',
  ROUTED_PAYOUT_NEEDS_APPROVAL: 'A payout above the approval limit waits for a second operator and cannot take a route: choose the provider account.',
  ALREADY_EXISTS: 'This name is already taken: choose another.',
  NO_ROUTE_RULE_MATCHES: 'No rule of the route fits this operation: change the route or choose a provider account.',
  ROUTE_ACCOUNTS_DELETED: "Every account of one of the route's rules was deleted: update the route.",
  ROUTE_NO_USABLE_ACCOUNT: "No account of the chosen rule can be used now: check the route's accounts.",
  ROUTE_NO_TARGET: 'The chosen rule of the route has no accounts: update the route.',
  ROUTE_TARGET_UNUSABLE: 'The provider account at {field} does not serve this rule: it was deleted, or its provider does not take the charges the rule names.',
  ROUTES_NOT_SERVED: 'This gateway does not serve routes: choose the provider account.',
  INVALID_BASE_URL: "This provider account's base URL is invalid: correct it in the account.",
  PROVIDER_REQUEST_TOO_LARGE: 'An id or parameter is too long for the provider; nothing was sent.',
  PROVIDER_CIRCUIT_OPEN: 'The provider failed several times in a row and the gateway stopped calling it for a moment; nothing was sent: try again shortly.',
  PROVIDER_REDIRECTED: "The provider answered a redirect, which the gateway does not follow: check the account's base URL.",
  PROVIDER_BAD_TOKEN_RESPONSE: "The provider answered the sign-in without a token; nothing was sent: check the account's credentials or try again.",
  CLIENT_CERTIFICATE_UNUSABLE: "The account's client certificate cannot be used: check the certificate file and its passphrase.",
  CLIENT_CERTIFICATE_UNAVAILABLE: "The account's client certificate could not be read from its address: check the address or try again.",
  CHARGE_NOT_PAID: 'Only a paid charge can be disputed.',
  DISPUTE_ALREADY_OPEN: 'This charge already has an open dispute of this kind.',
  DISPUTE_CLOSED: 'This dispute is closed: it takes no more evidence or changes.',
  NO_EVIDENCE: 'This dispute has no evidence: add at least one document before submitting the defence.',
  NO_NEW_EVIDENCE: 'The provider already received every piece of evidence of this dispute: add a new one to submit the defence again.',
  DEFENSE_IN_PROGRESS: "This dispute's defence is being sent to the provider right now; no document was sent twice: reload the dispute in a moment.",
  ALREADY_SETTLED: 'Someone else already settled this mismatch: reload the list to see how.',
  NOTHING_TO_CHANGE: 'Nothing changed: change at least one field before saving.',
  PROVIDER_DISPUTE_ID_SET: "This dispute already has the provider's id; it cannot be replaced.",
  EVIDENCE_NOT_PRIVATE:
    "This document can be read without authorisation at its address: upload the evidence again from the dispute's page, which keeps it private.",
  DEFENSE_DOCUMENTS_REFUSED: '{provider} does not take these documents (their number, total size or file type is beyond its limits); nothing was sent.',
  DOCUMENT_UNREADABLE: "The document {fileName} could not be read from the gateway's store; nothing was sent: try again.",
  STORAGE_UNAVAILABLE: "The gateway's file store is not configured: documents can be neither sent nor read.",
  DELIVERY_NOT_GAVE_UP: 'This delivery has not given up any more: reload the list.',
  NOTIFICATION_BUSY: 'This notification is being processed right now, or no longer exists: reload the list and try again.',
  NOTHING_TO_RECORD: 'This request kept nothing to record a result from: check with the provider and settle it as "did nothing".',
  RECEIVER_NOT_CREATED_HERE: 'This receiver was not created through the gateway, so the gateway does not have its API token at the provider.',
  NOT_FOUND: 'Not found: the record does not exist or was removed.',
  PROVIDER_NOT_REGISTERED: "This account's provider is not available in this gateway.",
  OVERLOADED: 'The gateway is overloaded: try again shortly.',
  DATABASE_UNAVAILABLE: "The gateway's database is unreachable or busy: try again shortly (error {errorId}).",
  INTERNAL: 'Internal error in the gateway (error {errorId}).',
  // Client certificates uploaded from the back-office.
  CERTIFICATE_NOT_PRIVATE:
    "This file of the gateway was not uploaded as a certificate and may be readable by anyone: upload the certificate again with the certificate's upload field.",
};

/**
 * The texts for the rules the gateway's shared validation helpers name as a field violation's reason (issue 33 §8),
 * shown beside the field instead of the gateway's English; `{maxLength}` comes from the ErrorInfo metadata. A
 * violation without a reason, or with one missing here, keeps the gateway's description.
 */
export const PT_FIELD_RULES: Record<string, string> = {
  REQUIRED: 'Obrigatório.',
  POSITIVE_CENTS: 'Informe um valor maior que zero.',
  TOO_LONG: 'No máximo {maxLength} caracteres.',
};

export const EN_FIELD_RULES: Record<string, string> = {
  REQUIRED: 'Required.',
  POSITIVE_CENTS: 'Enter an amount greater than zero.',
  TOO_LONG: 'At most {maxLength} characters.',
};
